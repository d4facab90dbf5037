import { z } from 'zod';
import { patchOf, text, uuid } from './finance';
import { POLICY_BOUNDS, REMINDER_LIMITS, SCHEDULING_LIMITS as LIMITS, SERVICE_SHAPE_BOUNDS, type Bounds } from './limits';
import { reminders } from './reminder-offsets';
import { instant, localTime, timeZone, tooLong } from './scheduling-fields';

/**
 * The scheduling API's request bodies (docs/SCHEDULING.md). The gateway validates and documents requests with
 * these; the bounds are the ones the scheduling service checks again (libs/contracts/src/api/limits.ts), and
 * what only the service can know (that a premise, service or resource exists, that windows do not overlap, a
 * version) it answers naming the field.
 */

/** Premise ids are the reference service's: positive decimal bigints. */
export const PREMISE_ID = /^[1-9]\d{0,17}$/;
export const premiseId = z.string().max(18, tooLong(18)).regex(PREMISE_ID, { message: 'must be a premise id' });

export const RESOURCE_KINDS = ['practitioner', 'room'] as const;

/** Why a time is not free: explain=true shows them to staff; none says who. */
export const SLOT_UNAVAILABLE_REASONS = ['outside_hours', 'closed', 'booked', 'held', 'buffer', 'min_notice', 'beyond_horizon', 'blocked'] as const;

const integerIn = ({ min, max }: Bounds) => {
  const message = `must be an integer from ${min} to ${max}`;
  return z.int({ message }).min(min, { message }).max(max, { message });
};

const name = text(LIMITS.name, { required: true });

/** Ids linked to a resource; a repeat is refused, as it cannot be meant. */
const idList = z
  .array(uuid)
  .max(LIMITS.links, { message: `must hold at most ${LIMITS.links} ids`, abort: true })
  .superRefine((ids, context) => {
    const seen = new Set<string>();
    ids.forEach((id, index) => {
      if (seen.has(id.toLowerCase())) context.addIssue({ code: 'custom', path: [index], message: 'repeats an earlier id' });
      seen.add(id.toLowerCase());
    });
  });

export const locationPut = z.object({ timeZone: timeZone.meta({ description: "The location's IANA zone." }) }).strict().meta({ id: 'LocationPut' });

const resourceFields = {
  name,
  active: z.boolean({ message: 'must be true or false' }),
  serviceIds: idList.meta({ description: 'The services it offers (replaces the list).' }),
  staffUserIds: idList.meta({ description: 'The users (clinicians) who staff it (replaces the list).' }),
};

export const newResource = z
  .object({
    locationId: premiseId.meta({ description: 'A bookable location (premise id).' }),
    kind: z.enum(RESOURCE_KINDS, { message: `must be one of ${RESOURCE_KINDS.join(', ')}` }),
    name,
    serviceIds: resourceFields.serviceIds.optional(),
    staffUserIds: resourceFields.staffUserIds.optional(),
  })
  .strict()
  .meta({ id: 'NewResource' });

export const resourcePatch = patchOf(resourceFields).meta({ id: 'ResourcePatch' });

const withDefault = (bounds: Bounds) => (bounds.default === undefined ? integerIn(bounds) : integerIn(bounds).default(bounds.default));

export const policy = z
  .object(
    {
      ...(Object.fromEntries(Object.entries(POLICY_BOUNDS).map(([field, bounds]) => [field, withDefault(bounds)])) as {
        [K in keyof typeof POLICY_BOUNDS]: (typeof POLICY_BOUNDS)[K] extends { default: number } ? z.ZodDefault<z.ZodInt> : z.ZodInt;
      }),
      reminders: reminders.default([...REMINDER_LIMITS.default]),
    },
    { error: (issue) => (issue.input === undefined ? 'is required' : 'must be an object') },
  )
  .strict()
  .meta({ id: 'Policy', description: 'The booking rules (docs/SCHEDULING.md, "Policies"); every field without a default is required.' });

const serviceFields = {
  name,
  ...(Object.fromEntries(Object.entries(SERVICE_SHAPE_BOUNDS).map(([field, bounds]) => [field, integerIn(bounds)])) as {
    [K in keyof typeof SERVICE_SHAPE_BOUNDS]: z.ZodInt;
  }),
  policy,
};

export const newService = z
  .object({
    ...serviceFields,
    // No buffer unless one is given: the gateway documents this default, and the service applies it.
    bufferBeforeMinutes: serviceFields.bufferBeforeMinutes.default(0),
    bufferAfterMinutes: serviceFields.bufferAfterMinutes.default(0),
  })
  .strict()
  .meta({ id: 'NewService' });

export const servicePatch = patchOf({ ...serviceFields, active: z.boolean({ message: 'must be true or false' }) }).meta({
  id: 'ServicePatch',
  description: 'A present policy replaces the whole policy; existing appointments keep theirs.',
});

const window = { start: localTime({ endOfDay: false }), end: localTime({ endOfDay: true }) };

export const weeklyRules = z
  .object({
    windows: z
      .array(
        z
          .object({
            weekday: z.int({ message: 'must be 1 (Monday) to 7 (Sunday)' }).min(1, { message: 'must be 1 (Monday) to 7 (Sunday)' }).max(7, { message: 'must be 1 (Monday) to 7 (Sunday)' }),
            ...window,
          })
          .strict(),
      )
      .max(LIMITS.weeklyWindows, { message: `must hold at most ${LIMITS.weeklyWindows} windows` }),
  })
  .strict()
  .meta({ id: 'WeeklyRulesPut', description: 'Replaces every weekly window: local wall-clock times of the location’s zone.' });

export const dateOverride = z
  .object({
    closed: z.boolean({ message: 'must be true or false' }),
    windows: z
      .array(z.object(window).strict())
      .max(LIMITS.dateWindows, { message: `must hold at most ${LIMITS.dateWindows} windows` })
      .default([]),
  })
  .strict()
  .refine((body) => body.closed === (body.windows.length === 0), {
    path: ['windows'],
    message: 'must be empty on a closed day, and hold at least one window on an open one',
  })
  .meta({ id: 'DateOverridePut' });

export const newBlock = z
  .object({
    resourceId: uuid,
    start: instant,
    end: instant,
    reason: text(LIMITS.reason).optional(),
    cancelOverlapping: z
      .boolean({ message: 'must be true or false' })
      .optional()
      .meta({ description: 'Cancel the appointments it overlaps (reason `prov`) instead of failing.' }),
  })
  .strict()
  .meta({ id: 'NewBlock' });
