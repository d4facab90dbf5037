import type { Response } from 'express';
import type { schedulingV1 } from '@libs/contracts';
import type { Caller } from '../platform/routing/access';
import { sendRecord } from '../scheduling/scheduling-response';
import { appointmentJsonFor } from './appointment-view';

/** Sends one appointment in its JSON shape as the caller may see it, with its version as ETag. */
export const sendAppointment = (res: Response, caller: Caller, appointment: schedulingV1.Appointment | undefined, status = 200): void =>
  sendRecord(res, appointment, appointmentJsonFor(caller), status);
