import { z } from 'zod';
import { financeApi, grantedRolesInProse, SCHEDULING_LIMITS, schedulingApi, schedulingFields } from '@libs/contracts';
import { format, withFhir } from '../platform/http/fhir-response';
import { operation } from '../platform/routing/operation';
import { cursor, queryBoolean, queryInteger, queryOf, queryText } from '../platform/routing/query-fields';
import { json, problem } from '../platform/routing/responses';
import { browse, needsOneOf, tag } from './scheduling-operation-parts';
import { slot } from './schemas';

/** Free slots (docs/SCHEDULING.md, "Slot search"). */

const RANGE_MESSAGE = `must be an instant with an offset or Z (2026-03-08T09:00:00-05:00), or a date YYYY-MM-DD`;

const isBound = (value: unknown) =>
  typeof value === 'string' && (schedulingFields.parseInstant(value) !== undefined || schedulingFields.isLocalDate(value));

/** A bound of the range: an instant with its offset, or a local date of the viewer's zone. */
const bound = queryText(SCHEDULING_LIMITS.instantMaxLength, 'is required')
  .refine(isBound, { message: RANGE_MESSAGE })
  .meta({ anyOf: [schedulingFields.INSTANT_SHAPE, schedulingFields.LOCAL_DATE_SHAPE] });

const { slotRangeDays } = SCHEDULING_LIMITS;
const explainers = grantedRolesInProse('scheduling:explain');

const searchQuery = needsOneOf(
  z.object({
    service: queryOf(financeApi.uuid).meta({ description: 'The service (appointment type) to book.' }),
    location: queryOf(schedulingApi.premiseId).optional().meta({ description: 'Every resource of this location offering the service.' }),
    resource: queryOf(financeApi.uuid).optional().meta({ description: 'Only this resource.' }),
    from: bound.meta({ description: 'Start of the range: an instant with an offset (included), or a local date (included).' }),
    to: bound.meta({ description: `End of the range: an instant (excluded), or a local date (included); at most ${slotRangeDays} days.` }),
    timeZone: queryOf(schedulingFields.timeZone)
      .optional()
      .meta({ description: "The viewer's IANA zone: local dates are its dates, and slots are also shown on its clock. The location's when absent." }),
    limit: queryInteger(SCHEDULING_LIMITS.slotPage).meta({ description: 'Page size.' }),
    cursor,
    explain: queryBoolean(false).meta({ description: `Also say why the rest of the range is not free (${explainers}).` }),
    _format: format,
  }),
  'location',
  'resource',
)
  // The range as a whole, once both its bounds are valid (zod runs this even when some field is not).
  .superRefine((query, context) => {
    if (!isBound(query.from) || !isBound(query.to)) return;
    const span = schedulingFields.rangeDays(query.from, query.to);
    if (span === undefined) context.addIssue({ code: 'custom', path: ['to'], message: 'must be of the same kind as from: two instants or two dates' });
    else if (span <= 0) context.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
    else if (span > slotRangeDays) context.addIssue({ code: 'custom', path: ['to'], message: `must be at most ${slotRangeDays} days after from` });
  });

const unavailable = z
  .object({
    resourceId: z.uuid(),
    start: schedulingFields.instant,
    end: schedulingFields.instant,
    reasons: z.array(z.enum(schedulingApi.SLOT_UNAVAILABLE_REASONS)),
  })
  .meta({ id: 'Unavailable', description: 'Why an interval is not free. Never says who booked or holds it.' });

const slotPage = z.object({
  slots: z.array(slot),
  nextCursor: z.string().optional(),
  nextAvailable: slot.optional().meta({ description: 'When the whole range has no free slot: the first one after it, within the policy’s horizon and the look-ahead’s budget of resource-days (docs/SCHEDULING.md).' }),
  unavailable: z.array(unavailable).optional().meta({ description: 'With `explain=true` only.' }),
});

export const searchSlots = operation({
  method: 'get',
  path: '/api/v1/scheduling/slots',
  operationId: 'searchSlots',
  summary: 'Free slots of a service at a location or resource',
  description:
    'Slots (and with `explain=true` the reasons for the rest) by start, a page at a time. In FHIR (`_format=fhir`), a searchset Bundle of Slot (status `free`, on the Schedule of its resource).',
  tag,
  access: browse,
  request: { query: searchQuery },
  responses: {
    '200': withFhir(json('A page of free slots.', slotPage), { resourceType: 'Slot', interaction: 'search-type' }),
    '403': problem(`\`explain=true\` is for ${explainers}.`),
    '404': problem('No such service, location or resource.'),
  },
});
