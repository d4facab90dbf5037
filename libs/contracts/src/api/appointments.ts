import { z } from 'zod';
import { text, uuid } from './finance';
import { premiseId } from './scheduling';
import { CURSOR_MAX_LENGTH, SCHEDULING_LIMITS } from './limits';
import { instant } from './scheduling-fields';

/**
 * The appointment API's request bodies and filters (docs/SCHEDULING.md, "Endpoints"). The gateway validates and
 * documents requests with these; the scheduling service checks what reaches it over gRPC with the same lists
 * and limits, then what only it can: the slot token's signature, the policy, the status.
 */

/** An appointment's statuses, in the order of its life (docs/SCHEDULING.md, "States"). */
export const APPOINTMENT_STATUSES = ['held', 'booked', 'checked_in', 'fulfilled', 'noshow', 'cancelled', 'entered_in_error'] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
/** What an entry of an appointment's history says was done. */
export const APPOINTMENT_ACTIONS = [
  'held',
  'booked',
  'confirmed',
  'released',
  'expired',
  'rescheduled',
  'cancelled',
  'checked_in',
  'completed',
  'no_show',
  'no_show_reverted',
  'entered_in_error',
] as const;

/**
 * The codes of FHIR R4's appointment-cancellation-reason value set
 * (http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason): who or what made the appointment
 * not happen. A cancellation names one; "expired" and "released" are kept for holds that ran out or were let go.
 */
export const CANCELLATION_REASONS = [
  'pat', 'pat-crs', 'pat-cpp', 'pat-dec', 'pat-fb', 'pat-lt', 'pat-mt', 'pat-mv', 'pat-preg', 'pat-swl', 'pat-ucp',
  'prov', 'prov-pers', 'prov-dch', 'prov-edu', 'prov-hosp', 'prov-labs', 'prov-mri', 'prov-onc',
  'maint', 'meds-inc', 'other', 'oth-cms', 'oth-err', 'oth-fin', 'oth-im', 'oth-int', 'oth-mu', 'oth-room', 'oth-oerr',
  'oth-swie', 'oth-weath',
] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

const slotToken = text(CURSOR_MAX_LENGTH, { required: true }).meta({
  description: 'The `slotToken` of a free slot from a slot search, unchanged: the service checks its signature.',
});
const reason = (required: boolean) => text(SCHEDULING_LIMITS.reasonText, { required });

/** Hold or book a slot: a student for themselves (`studentId` left out or their own), staff for a named student. */
export const slotRequest = z
  .object({
    slotToken,
    studentId: uuid.optional().meta({ description: 'Required from staff; a student holds and books for themselves.' }),
  })
  .strict()
  .meta({ id: 'SlotRequest' });

export const rescheduleRequest = z.object({ slotToken }).strict().meta({ id: 'RescheduleRequest' });

export const cancelRequest = z
  .object({
    reasonCode: z
      .enum(CANCELLATION_REASONS, { message: 'must be a code of FHIR appointment-cancellation-reason, e.g. pat or prov' })
      .meta({ description: 'A code of FHIR R4 appointment-cancellation-reason: `pat` (the patient), `prov` (the provider), `oth-err`, …' }),
    reasonText: reason(false).optional(),
  })
  .strict()
  .meta({ id: 'CancelRequest' });

export const enteredInErrorRequest = z.object({ reason: reason(true) }).strict().meta({ id: 'EnteredInErrorRequest' });

/** The filters of the appointment list; absent means unfiltered. `studentId` is for staff: a student sees their own. */
export const appointmentFilters = z.object({
  locationId: premiseId.optional(),
  resourceId: uuid.optional(),
  studentId: uuid.optional(),
  status: z.enum(APPOINTMENT_STATUSES, { message: `must be one of ${APPOINTMENT_STATUSES.join(', ')}` }).optional(),
  from: instant.optional(),
  to: instant.optional(),
});
