import type { Response } from 'express';
import { toAppointmentJson, type schedulingV1 } from '@libs/contracts';
import { sendRecord } from '../scheduling/scheduling-response';

/** Sends one appointment in its JSON shape, with its version as ETag. */
export const sendAppointment = (res: Response, appointment: schedulingV1.Appointment | undefined, status = 200): void =>
  sendRecord(res, appointment, toAppointmentJson, status);
