import JSONSchemaValidator from '@asymmetrik/fhir-json-schema-validator';
import { schedulingV1 } from '@libs/contracts';
import type { AppointmentContext } from '../appointment-context';
import { SCHEDULING_SYSTEMS } from '../../scheduling/fhir/systems';
import { fhirAppointment } from './appointment';

const ROOM = '5f1f0d7e-9c1e-4f4e-8b7a-2d9f4c1e0a01';
const SERVICE = '5e1f0d7e-9c1e-4f4e-8b7a-2d9f4c1e0a02';

const context: AppointmentContext = {
  service: (id) => (id === SERVICE ? schedulingV1.Service.fromPartial({ id, name: 'Vaccination' }) : undefined),
  resource: (id) => (id === ROOM ? schedulingV1.Resource.fromPartial({ id, kind: 'room', name: 'Consultation room' }) : undefined),
  location: (premiseId) => schedulingV1.Location.fromPartial({ premiseId, name: 'Borough High Street Pharmacy' }),
};

const appointment = (overrides: Partial<schedulingV1.Appointment>) =>
  schedulingV1.Appointment.fromPartial({
    id: '0b7f2a52-6c1e-4d0e-9a59-3f3a1c2b9d10',
    status: 'booked',
    fhirStatus: 'booked',
    locationId: '2',
    resourceId: ROOM,
    serviceId: SERVICE,
    studentId: '00000000-0000-4000-8000-0000000d0002',
    start: '2027-03-28T09:00:00+01:00',
    end: '2027-03-28T09:15:00+01:00',
    version: 3,
    createdAt: '2027-03-01T09:00:00+00:00',
    updatedAt: '2027-03-02T10:15:30+00:00',
    ...overrides,
  });

const validator = new JSONSchemaValidator();
const problems = (resource: object) => validator.validate(resource);

describe('an appointment as FHIR R4 Appointment', () => {
  it('names the resource by its Schedule identifier and name, the location by premise, the service as serviceType, and is valid FHIR', () => {
    const resource = fhirAppointment(appointment({}), context);
    expect(problems(resource)).toEqual([]);
    expect(resource).toMatchObject({
      status: 'booked',
      meta: { versionId: '3' },
      serviceType: [{ text: 'Vaccination' }],
      minutesDuration: 15,
      participant: [
        { actor: { reference: 'Patient/00000000-0000-4000-8000-0000000d0002' }, status: 'accepted' },
        { actor: { identifier: { system: SCHEDULING_SYSTEMS.resource, value: ROOM }, display: 'Consultation room' } },
        { actor: { reference: 'Location/2', display: 'Borough High Street Pharmacy' } },
      ],
    });
  });

  it('a hold is pending with tentative participants; one that ran out is cancelled with its reason as text only', () => {
    expect(fhirAppointment(appointment({ status: 'held', fhirStatus: 'pending' }), context)).toMatchObject({
      status: 'pending',
      participant: [{ status: 'tentative' }, { status: 'tentative' }, { status: 'accepted' }],
    });
    const cancellation = schedulingV1.Cancellation.fromPartial({ reasonCode: 'expired', cancelledBy: 'system' });
    const expired = fhirAppointment(appointment({ status: 'cancelled', fhirStatus: 'cancelled', cancellation }), context);
    expect(problems(expired)).toEqual([]);
    expect(expired.cancelationReason).toEqual({ text: 'hold expired' });
  });

  it('an appointment entered in error says why, and leaves out what it does not know', () => {
    const unknown = { ...context, service: () => undefined, resource: () => undefined };
    const voided = fhirAppointment(appointment({ status: 'entered_in_error', fhirStatus: 'entered-in-error', errorReason: 'duplicate' }), unknown);
    expect(problems(voided)).toEqual([]);
    expect(voided).toMatchObject({ status: 'entered-in-error', description: 'duplicate' });
    expect(voided.serviceType).toBeUndefined();
    expect((voided.participant as { actor: object }[])[1].actor).toEqual({ identifier: { system: SCHEDULING_SYSTEMS.resource, value: ROOM } });
  });
});
