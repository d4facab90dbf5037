import { z } from 'zod';
import { byId as pathId } from '../platform/routing/path-ids';
import { etagHeader, json, locationHeader, problem, type ResponseDoc } from '../platform/routing/responses';
import { appointment } from './schemas';

/** The parts the appointment declarations share: paths, answers and refusals. */

export const tag = 'Appointments';
export const APPOINTMENTS_PATH = '/api/v1/appointments';

export const byId = pathId('Appointment');

export const notFound = { '404': problem('No such appointment (or not one you may see: another student’s is a 404, never a 403).') };

/** One appointment, with its version as ETag. */
export const oneAppointment = (description: string): ResponseDoc => json(description, appointment, etagHeader);

/** A new appointment: 201, `Location` names it. */
export const created = (description: string): ResponseDoc => json(description, appointment, { ...etagHeader, ...locationHeader });

/** Several refusals answered with one status: their problem schemas as alternatives. */
export function eitherRefusal(...docs: ResponseDoc[]): ResponseDoc {
  const schemas = docs.map((doc) => doc.content?.['application/problem+json']).filter((schema): schema is z.ZodType => !!schema);
  return {
    description: docs.map((doc) => doc.description).join(' Or: '),
    content: { 'application/problem+json': z.union(schemas as [z.ZodType, z.ZodType, ...z.ZodType[]]) },
  };
}
