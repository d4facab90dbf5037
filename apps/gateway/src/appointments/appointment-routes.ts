import type { schedulingV1 } from '@libs/contracts';
import type { UnaryMethod } from '@libs/grpc';
import { etagOf } from '../platform/http/if-match';
import { route, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { searchsetBundle } from '../reference/fhir/bundle';
import { representationOf, sendRepresentation } from '../platform/http/fhir-response';
import { contextOf, type AppointmentContext } from './appointment-context';
import { APPOINTMENTS_PATH } from './appointment-operation-parts';
import { returned } from '../scheduling/scheduling-response';
import { sendAppointment } from './appointment-response';
import * as op from './appointment-operations';
import { fhirAppointment } from './fhir/appointment';
import { appointmentCalendar } from '@libs/calendar';
import { appointmentJsonFor, historyJsonFor } from './appointment-view';

/** /api/v1/appointments: hold, book, list, read (JSON, FHIR R4, iCalendar) and history. */
export function appointmentRoutes(upstreams: Upstreams): Route[] {
  const scheduling = upstreams.scheduling;
  /** Hold or book a slot: the same request, a new appointment named in `Location`. */
  const take = (
    spec: typeof op.holdSlot | typeof op.bookAppointment,
    pick: (client: schedulingV1.SchedulingServiceClient) => UnaryMethod<schedulingV1.HoldSlotRequest, { appointment?: schedulingV1.Appointment }>,
  ) =>
    route(spec, async ({ headers, body }, { res, caller, upstream }) => {
      const request = { slotToken: body.slotToken, studentId: body.studentId ?? '', idempotencyKey: headers['Idempotency-Key'] ?? '' };
      const { appointment } = await scheduling.call(pick, request, upstream);
      res.location(`${APPOINTMENTS_PATH}/${returned(appointment).id}`);
      sendAppointment(res, caller, appointment, 201);
    });
  return [
    take(op.holdSlot, (client) => client.holdSlot),
    take(op.bookAppointment, (client) => client.bookAppointment),

    route(op.listAppointments, async ({ query }, { req, res, caller, upstream }) => {
      const request: schedulingV1.ListAppointmentsRequest = {
        locationId: query.locationId ?? '',
        resourceId: query.resourceId ?? '',
        studentId: query.studentId ?? '',
        status: query.status ?? '',
        from: query.from ?? '',
        to: query.to ?? '',
        cursor: query.cursor ?? '',
        limit: query.limit,
      };
      const page = await scheduling.call((client) => client.listAppointments, request, upstream);
      const representation = representationOf(req, query._format);
      // FHIR names each appointment's service, resource and location: looked up only for a FHIR answer.
      const context = representation === 'fhir' ? await contextOf(upstreams, page.appointments, upstream) : undefined;
      sendRepresentation(res, representation, {
        json: () => ({ appointments: page.appointments.map(appointmentJsonFor(caller)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) }),
        fhir: () =>
          searchsetBundle(req, page.appointments.map((a) => fhirAppointment(a, context as AppointmentContext)), page.nextCursor || undefined),
      });
    }),

    route(op.getAppointment, async ({ path, query }, { req, res, caller, upstream }) => {
      const { appointment } = await scheduling.call((client) => client.getAppointment, { id: path.id }, upstream);
      const found = returned(appointment);
      const representation = representationOf(req, query._format);
      const context = representation === 'fhir' ? await contextOf(upstreams, [found], upstream) : undefined;
      // The version tags the JSON only (If-Match names it); FHIR also shows names that change without the
      // appointment changing, so Express tags it by its body and a rename never earns a stale 304.
      if (representation === 'json') res.setHeader('ETag', etagOf(found.version));
      sendRepresentation(res, representation, {
        json: () => appointmentJsonFor(caller)(found),
        fhir: () => fhirAppointment(found, context as AppointmentContext),
      });
    }),

    route(op.getAppointmentHistory, async ({ path }, { res, caller, upstream }) => {
      const { entries } = await scheduling.call((client) => client.getAppointmentHistory, { id: path.id }, upstream);
      res.json({ entries: entries.map(historyJsonFor(caller)) });
    }),

    route(op.getAppointmentCalendar, async ({ path }, { res, upstream }) => {
      const found = returned((await scheduling.call((client) => client.getAppointment, { id: path.id }, upstream)).appointment);
      // The calendar names the service and the location, not the resource: only those two are fetched.
      const context = await contextOf(upstreams, [found], upstream, ['service', 'location']);
      const names = {
        service: context.service(found.serviceId)?.name ?? 'Appointment',
        location: context.location(found.locationId)?.name ?? found.locationId,
      };
      // No version ETag: the file shows names that change without the appointment changing; Express tags its body.
      res
        .type('text/calendar; charset=utf-8')
        .setHeader('Content-Disposition', `attachment; filename="appointment-${found.id}.ics"`)
        .send(appointmentCalendar(found, names));
    }),
  ];
}
