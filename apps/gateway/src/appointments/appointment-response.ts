import type { Response } from 'express';
import { toAppointmentJson, type schedulingV1 } from '@libs/contracts';
import { HttpProblem } from '@libs/http-problems';
import { etagOf } from '../platform/http/if-match';

/** The appointment a call answered: the service always sends one with a success. */
export function present(appointment: schedulingV1.Appointment | undefined): schedulingV1.Appointment {
  if (!appointment) throw new HttpProblem(500, 'the scheduling service returned no appointment');
  return appointment;
}

/** Sends one appointment in its JSON shape, with its version as ETag. */
export function sendAppointment(res: Response, appointment: schedulingV1.Appointment | undefined, status = 200): void {
  const sent = present(appointment);
  res.status(status).setHeader('ETag', etagOf(sent.version)).json(toAppointmentJson(sent));
}
