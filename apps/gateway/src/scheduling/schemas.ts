import { z } from 'zod';
import { blockJson, grantedRolesInProse, locationJson, resourceJson, scheduleJson, schedulingFields, serviceJson, type schedulingV1 } from '@libs/contracts';

/**
 * What the scheduling area answers: the one JSON shape of each entity (@libs/contracts, the same as the audit
 * log's `before`/`after`), named as the document's components; and a free slot, which slot search and the
 * alternatives of a refused booking show.
 */

export const location = locationJson.meta({ id: 'Location', description: 'A premise of the reference service where booking is enabled.' });

const staff = grantedRolesInProse('scheduling:staff-view');

/** Who staffs a resource is shown to staff (`scheduling:staff-view`) only: for the others the field is left out. */
export const resource = resourceJson
  .extend({ staffUserIds: resourceJson.shape.staffUserIds.optional().meta({ description: `${staff[0].toUpperCase()}${staff.slice(1)} only.` }) })
  .meta({ id: 'Resource', description: 'A practitioner or a room at a location; its schedule has its id.' });

export const service = serviceJson.meta({ id: 'SchedulingService', description: 'An appointment type: its shape and policy.' });

export const schedule = scheduleJson.meta({
  id: 'Schedule',
  description:
    "A schedule's weekly rules (`timeZone`, windows with `weekday`; `localDate` and `closed` null) or one date's override (`localDate`, `closed`, windows of that date; `timeZone` and `weekday` null). `version` is its ETag.",
});

export const block = blockJson
  .extend({
    createdBy: blockJson.shape.createdBy.nullable().meta({ description: 'The staff user who created it; null for callers who are not staff.' }),
    reason: blockJson.shape.reason.nullable().meta({ description: 'Why the time is blocked (often personal: leave, illness); null for callers who are not staff.' }),
  })
  .meta({ id: 'Block', description: 'Time off or a closure of one resource.' });

export const slot = z
  .object({
    slotToken: z.string().meta({ description: 'Names the service, resource and start, signed by the service: send it back to hold or book.' }),
    start: schedulingFields.instant,
    end: schedulingFields.instant,
    timeZone: z.string().meta({ description: "The location's IANA zone; `start` and `end` carry its offset." }),
    resourceId: z.guid(),
    locationId: z.string(),
    serviceId: z.guid(),
    viewerStart: schedulingFields.instant.optional().meta({ description: "`start` on the viewer's clock, when `timeZone` was given." }),
    viewerEnd: schedulingFields.instant.optional(),
  })
  .meta({ id: 'Slot' });

/** A slot as the API shows it: the viewer's times only when the search named a viewer's zone. */
export const toSlotJson = (m: schedulingV1.Slot): z.infer<typeof slot> => ({
  slotToken: m.slotToken,
  start: m.start,
  end: m.end,
  timeZone: m.timeZone,
  resourceId: m.resourceId,
  locationId: m.locationId,
  serviceId: m.serviceId,
  ...(m.viewerStart ? { viewerStart: m.viewerStart, viewerEnd: m.viewerEnd } : {}),
});
