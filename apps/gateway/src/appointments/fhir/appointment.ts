import { appointmentsApi, type schedulingV1 } from '@libs/contracts';
import { compact, type FhirResource } from '../../reference/fhir/bundle';
import { SCHEDULING_SYSTEMS } from '../../scheduling/fhir/systems';
import type { AppointmentContext } from '../appointment-context';

const CANCELLATION_REASON_SYSTEM = 'http://terminology.hl7.org/CodeSystem/appointment-cancellation-reason';
const PARTICIPATION_TYPE_SYSTEM = 'http://terminology.hl7.org/CodeSystem/v3-ParticipationType';

const isFhirReason = (code: string): boolean => (appointmentsApi.CANCELLATION_REASONS as readonly string[]).includes(code);

/** Why it was cancelled: a code of FHIR's value set, or (a hold that ran out or was let go) our own word as text. */
function cancelationReason(cancellation: schedulingV1.Cancellation) {
  const text = cancellation.reasonText || undefined;
  if (!isFhirReason(cancellation.reasonCode)) return { text: text ?? `hold ${cancellation.reasonCode}` };
  return compact({ coding: [{ system: CANCELLATION_REASON_SYSTEM, code: cancellation.reasonCode }], text });
}

/** A hold is not yet agreed: its participants are tentative; otherwise they accepted it. */
const participantStatus = (appointment: schedulingV1.Appointment) => (appointment.status === 'held' ? 'tentative' : 'accepted');

/**
 * An appointment → FHIR R4 Appointment (docs/SCHEDULING.md, "FHIR"). `status` is the service's `fhirStatus`;
 * participants: the student (Patient), the resource and the location (Location, with the reference service's
 * premise id, as GET /api/v1/premises?_format=fhir names it); the service is `serviceType`, by name. No
 * Practitioner or Location resource has a scheduling resource's id, so the resource is named by its identifier
 * (the one its Schedule carries) and its name, not by a reference that would lead nowhere.
 */
export function fhirAppointment(appointment: schedulingV1.Appointment, context: AppointmentContext): FhirResource {
  const status = participantStatus(appointment);
  const service = context.service(appointment.serviceId);
  const resource = context.resource(appointment.resourceId);
  const location = context.location(appointment.locationId);
  const minutes = Math.round((Date.parse(appointment.end) - Date.parse(appointment.start)) / 60_000);
  return {
    resourceType: 'Appointment',
    id: appointment.id,
    meta: { versionId: String(appointment.version), lastUpdated: appointment.updatedAt },
    status: appointment.fhirStatus,
    ...compact({
      cancelationReason: appointment.cancellation ? cancelationReason(appointment.cancellation) : undefined,
      serviceType: service ? [{ text: service.name }] : undefined,
      description: appointment.errorReason || undefined,
    }),
    start: appointment.start,
    end: appointment.end,
    minutesDuration: minutes,
    created: appointment.createdAt,
    participant: [
      { type: [{ coding: [{ system: PARTICIPATION_TYPE_SYSTEM, code: 'SBJ', display: 'subject' }] }], actor: { reference: `Patient/${appointment.studentId}` }, required: 'required', status },
      {
        actor: compact({ identifier: { system: SCHEDULING_SYSTEMS.resource, value: appointment.resourceId }, display: resource?.name }),
        required: 'required',
        status,
      },
      { actor: compact({ reference: `Location/${appointment.locationId}`, display: location?.name }), required: 'information-only', status: 'accepted' },
    ],
  };
}
