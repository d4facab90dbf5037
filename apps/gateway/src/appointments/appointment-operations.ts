import { z } from 'zod';
import { appointmentsApi, SCHEDULING_LIMITS } from '@libs/contracts';
import { idempotentWrite } from '../platform/routing/headers';
import { operation } from '../platform/routing/operation';
import { cursor, queryChoice, queryInteger, queryOf } from '../platform/routing/query-fields';
import { bodyEtagHeader, json, page } from '../platform/routing/responses';
import { format, withFhir } from '../platform/http/fhir-response';
import { REFUSALS } from '../scheduling/refusal-schemas';
import { APPOINTMENTS_PATH, byId, created, notFound, tag } from './appointment-operation-parts';
import { appointment, historyEntry } from './schemas';

/** Holding, booking and reading appointments (docs/SCHEDULING.md, "Endpoints"). */

const filters = appointmentsApi.appointmentFilters.shape;
const takeRefusals = { '409': REFUSALS.conflict, '422': REFUSALS.policy };

export const holdSlot = operation({
  method: 'post',
  path: `${APPOINTMENTS_PATH}/holds`,
  operationId: 'holdSlot',
  summary: 'Hold a free slot for a while (status held, until `holdExpiresAt`)',
  description:
    'A student holds for themselves; staff name the student (`studentId`). Confirm the hold before `holdExpiresAt` to book it. A tampered or unknown `slotToken` is a 400 naming it.',
  tag,
  access: { key: 'appointments:book' },
  request: { headers: idempotentWrite, body: appointmentsApi.slotRequest },
  responses: { '201': created('The hold; `Location` names it.'), ...takeRefusals },
});

export const bookAppointment = operation({
  method: 'post',
  path: APPOINTMENTS_PATH,
  operationId: 'bookAppointment',
  summary: 'Book a free slot in one step (status booked)',
  description: 'For walk-ins and API clients: no hold first. A student books for themselves; staff name the student.',
  tag,
  access: { key: 'appointments:book' },
  request: { headers: idempotentWrite, body: appointmentsApi.slotRequest },
  responses: { '201': created('The booking; `Location` names it.'), ...takeRefusals },
});

export const listAppointments = operation({
  method: 'get',
  path: APPOINTMENTS_PATH,
  operationId: 'listAppointments',
  summary: 'Appointments by start, then id: a student’s own, a clinician’s staffed resources’, all for an admin',
  tag,
  access: { key: 'appointments:read' },
  request: {
    query: z.object({
      locationId: queryOf(filters.locationId.unwrap()).optional().meta({ description: 'Only at this location (premise id).' }),
      resourceId: queryOf(filters.resourceId.unwrap()).optional().meta({ description: 'Only with this resource.' }),
      studentId: queryOf(filters.studentId.unwrap()).optional().meta({ description: 'Only this student’s (staff; a student always sees their own).' }),
      status: queryChoice(appointmentsApi.APPOINTMENT_STATUSES).optional().meta({ description: 'Only this status.' }),
      from: queryOf(filters.from.unwrap()).optional().meta({ description: 'Starting at or after this instant (with an offset or Z).' }),
      to: queryOf(filters.to.unwrap()).optional().meta({ description: 'Starting before this instant (with an offset or Z).' }),
      limit: queryInteger(SCHEDULING_LIMITS.page).meta({ description: 'Page size.' }),
      cursor,
      _format: format,
    }),
  },
  responses: {
    '200': withFhir(json('A page of appointments (or a FHIR searchset Bundle of them).', page('appointments', appointment)), { resourceType: 'Appointment', interaction: 'search-type' }),
  },
});

/** JSON carries the version as ETag; FHIR, which also shows names, a tag of its body (appointment-routes.ts). */
const versionOrBodyEtag = {
  ETag: { ...bodyEtagHeader.ETag, description: 'JSON: the record version, e.g. `"3"`. FHIR: a weak tag of the body, never the version.' },
};

export const getAppointment = operation({
  method: 'get',
  path: `${APPOINTMENTS_PATH}/{id}`,
  operationId: 'getAppointment',
  summary: 'One appointment (or its FHIR R4 Appointment)',
  tag,
  access: { key: 'appointments:read' },
  request: { path: byId, query: z.object({ _format: format }) },
  responses: {
    '200': withFhir(json('The appointment (in JSON, its version is the ETag).', appointment, versionOrBodyEtag), { resourceType: 'Appointment', interaction: 'read' }),
    ...notFound,
  },
});

export const getAppointmentHistory = operation({
  method: 'get',
  path: `${APPOINTMENTS_PATH}/{id}/history`,
  operationId: 'getAppointmentHistory',
  summary: 'Every change of an appointment, oldest first',
  tag,
  access: { key: 'appointments:read' },
  request: { path: byId },
  responses: { '200': json('The changes.', z.object({ entries: z.array(historyEntry) })), ...notFound },
});

export const getAppointmentCalendar = operation({
  method: 'get',
  path: `${APPOINTMENTS_PATH}/{id}/ics`,
  operationId: 'getAppointmentCalendar',
  summary: 'The appointment as an iCalendar file (RFC 5545), for a calendar app',
  description:
    'One VEVENT: UID stable per appointment, SEQUENCE growing with each reschedule and each change of STATUS, times on the location’s clock (TZID, with its VTIMEZONE; UTC for the second pass of a fall-back hour), STATUS TENTATIVE (held), CONFIRMED or CANCELLED. Import it again after a change and the calendar updates the same event.',
  tag,
  access: { key: 'appointments:read' },
  request: { path: byId },
  responses: {
    '200': { description: 'A VCALENDAR with one VEVENT.', content: { 'text/calendar': z.string() }, headers: bodyEtagHeader },
    ...notFound,
  },
});
