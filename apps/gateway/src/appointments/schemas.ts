import { z } from 'zod';
import { appointmentJson, appointmentsApi, schedulingFields, type schedulingV1 } from '@libs/contracts';

/**
 * What the appointment operations answer. An appointment is the entity's one JSON shape
 * (libs/contracts/src/scheduling-entities.ts): the same in these answers and in the audit log.
 */

const ownOrStaffOnly = 'null for a caller who is not staff, unless it is their own id';
const cancellation = appointmentJson.shape.cancellation.unwrap();

export const appointment = appointmentJson.extend({
  bookedBy: appointmentJson.shape.bookedBy.nullable().meta({ description: `Who made it; ${ownOrStaffOnly}.` }),
  cancellation: cancellation
    .extend({ cancelledBy: cancellation.shape.cancelledBy.nullable().meta({ description: `Who cancelled it; ${ownOrStaffOnly} (\`cancelledByRole\` says which role).` }) })
    .nullable(),
}).meta({
  id: 'Appointment',
  description:
    `A student’s booking of a service with a resource. \`status\`: ${appointmentsApi.APPOINTMENT_STATUSES.join(', ')}; \`fhirStatus\` is its FHIR R4 Appointment.status. \`sequence\` is the iCalendar SEQUENCE. Absent values are null.`,
});

export const historyEntry = z
  .object({
    version: z.int(),
    sequence: z.int(),
    action: z.string().meta({ description: `${appointmentsApi.APPOINTMENT_ACTIONS.join(', ')}.` }),
    status: z.string(),
    start: schedulingFields.instant,
    end: schedulingFields.instant,
    actorId: z.string().nullable().meta({ description: `Who made the change; ${ownOrStaffOnly} (\`actorRole\` says which role).` }),
    actorRole: z.string(),
    at: schedulingFields.instant,
    reasonCode: z.string().nullable(),
    late: z.boolean(),
  })
  .meta({ id: 'AppointmentHistoryEntry', description: 'One change of an appointment: what it became, who did it and when.' });

export const toHistoryJson = (m: schedulingV1.HistoryEntry): z.infer<typeof historyEntry> => ({
  version: m.version,
  sequence: m.sequence,
  action: m.action,
  status: m.status,
  start: m.start,
  end: m.end,
  actorId: m.actorId,
  actorRole: m.actorRole,
  at: m.at,
  reasonCode: m.reasonCode === '' ? null : m.reasonCode,
  late: m.late,
});
