import { z } from 'zod';
import type * as schedulingV1 from './generated/scheduling/v1/scheduling';

/**
 * The JSON shape of each scheduling entity in the audit log's `before`/`after`: the gRPC message's fields,
 * with an absent optional value as null, never "" (gRPC messages cannot say null, so "" stands for it there).
 * Instants are ISO 8601 strings; local dates and times are the location's wall clock.
 */

const uuid = z.uuid();
const instant = z.iso.datetime({ offset: true });
const version = z.int().min(1);
const orNull = (value: string): string | null => (value === '' ? null : value);

const policyJson = z.object({
  minNoticeMinutes: z.int(),
  horizonDays: z.int(),
  holdTtlSeconds: z.int(),
  cancelCutoffMinutes: z.int(),
  rescheduleCutoffMinutes: z.int(),
  checkInWindowMinutes: z.int(),
  noShowGraceMinutes: z.int(),
  maxActivePerStudent: z.int(),
  maxHoldsPerStudent: z.int(),
  reminders: z.array(z.string()),
});
const toPolicyJson = (policy: schedulingV1.Policy | undefined): z.infer<typeof policyJson> | null =>
  policy === undefined ? null : { ...policy };

export const locationJson = z.object({
  premiseId: z.string(),
  name: z.string(),
  timeZone: z.string(),
  version,
  createdAt: instant,
  updatedAt: instant,
});
export const toLocationJson = (m: schedulingV1.Location): z.infer<typeof locationJson> => ({
  premiseId: m.premiseId,
  name: m.name,
  timeZone: m.timeZone,
  version: m.version,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

export const resourceJson = z.object({
  id: uuid,
  locationId: z.string(),
  kind: z.string(),
  name: z.string(),
  active: z.boolean(),
  serviceIds: z.array(uuid),
  staffUserIds: z.array(z.string()),
  version,
  createdAt: instant,
  updatedAt: instant,
});
export const toResourceJson = (m: schedulingV1.Resource): z.infer<typeof resourceJson> => ({
  id: m.id,
  locationId: m.locationId,
  kind: m.kind,
  name: m.name,
  active: m.active,
  serviceIds: [...m.serviceIds],
  staffUserIds: [...m.staffUserIds],
  version: m.version,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

export const serviceJson = z.object({
  id: uuid,
  name: z.string(),
  durationMinutes: z.int(),
  slotStepMinutes: z.int(),
  bufferBeforeMinutes: z.int(),
  bufferAfterMinutes: z.int(),
  policy: policyJson.nullable(),
  active: z.boolean(),
  version,
  createdAt: instant,
  updatedAt: instant,
});
export const toServiceJson = (m: schedulingV1.Service): z.infer<typeof serviceJson> => ({
  id: m.id,
  name: m.name,
  durationMinutes: m.durationMinutes,
  slotStepMinutes: m.slotStepMinutes,
  bufferBeforeMinutes: m.bufferBeforeMinutes,
  bufferAfterMinutes: m.bufferAfterMinutes,
  policy: toPolicyJson(m.policy),
  active: m.active,
  version: m.version,
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});

/**
 * A schedule's change is either its weekly rules (timeZone, windows with weekdays) or one date's override
 * (localDate, closed, windows of that date): one shape for both, the other kind's fields null.
 */
export const scheduleJson = z.object({
  scheduleId: uuid,
  timeZone: z.string().nullable(),
  localDate: z.iso.date().nullable(),
  closed: z.boolean().nullable(),
  windows: z.array(z.object({ weekday: z.int().min(1).max(7).nullable(), start: z.string(), end: z.string() })),
  version,
});
export const toScheduleJson = (m: schedulingV1.WeeklyRules | schedulingV1.DateOverride): z.infer<typeof scheduleJson> =>
  'localDate' in m
    ? {
        scheduleId: m.scheduleId,
        timeZone: null,
        localDate: m.localDate,
        closed: m.closed,
        windows: m.windows.map((w) => ({ weekday: null, start: w.start, end: w.end })),
        version: m.version,
      }
    : {
        scheduleId: m.scheduleId,
        timeZone: m.timeZone,
        localDate: null,
        closed: null,
        windows: m.windows.map((w) => ({ weekday: w.weekday, start: w.start, end: w.end })),
        version: m.version,
      };

export const blockJson = z.object({
  id: uuid,
  resourceId: uuid,
  start: instant,
  end: instant,
  timeZone: z.string(),
  reason: z.string(),
  createdBy: z.string(),
  version,
  createdAt: instant,
});
export const toBlockJson = (m: schedulingV1.Block): z.infer<typeof blockJson> => ({
  id: m.id,
  resourceId: m.resourceId,
  start: m.start,
  end: m.end,
  timeZone: m.timeZone,
  reason: m.reason,
  createdBy: m.createdBy,
  version: m.version,
  createdAt: m.createdAt,
});

const cancellationJson = z.object({
  reasonCode: z.string(),
  reasonText: z.string(),
  cancelledBy: z.string(),
  cancelledByRole: z.string(),
  late: z.boolean(),
  cancelledAt: instant,
});

export const appointmentJson = z.object({
  id: uuid,
  status: z.string(),
  fhirStatus: z.string(),
  locationId: z.string(),
  resourceId: uuid,
  serviceId: uuid,
  studentId: uuid,
  start: instant,
  end: instant,
  timeZone: z.string(),
  holdExpiresAt: instant.nullable(),
  version,
  sequence: z.int(),
  policy: policyJson.nullable(),
  bookedBy: z.string(),
  cancellation: cancellationJson.nullable(),
  checkedInAt: instant.nullable(),
  completedAt: instant.nullable(),
  noShowAt: instant.nullable(),
  errorReason: z.string().nullable(),
  createdAt: instant,
  updatedAt: instant,
});
export const toAppointmentJson = (m: schedulingV1.Appointment): z.infer<typeof appointmentJson> => ({
  id: m.id,
  status: m.status,
  fhirStatus: m.fhirStatus,
  locationId: m.locationId,
  resourceId: m.resourceId,
  serviceId: m.serviceId,
  studentId: m.studentId,
  start: m.start,
  end: m.end,
  timeZone: m.timeZone,
  holdExpiresAt: orNull(m.holdExpiresAt),
  version: m.version,
  sequence: m.sequence,
  policy: toPolicyJson(m.policy),
  bookedBy: m.bookedBy,
  cancellation: m.cancellation === undefined ? null : { ...m.cancellation },
  checkedInAt: orNull(m.checkedInAt),
  completedAt: orNull(m.completedAt),
  noShowAt: orNull(m.noShowAt),
  errorReason: orNull(m.errorReason),
  createdAt: m.createdAt,
  updatedAt: m.updatedAt,
});
