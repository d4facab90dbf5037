import type { schedulingV1 } from '@libs/contracts';
import type { UnaryMethod } from '@libs/grpc';
import { route, type OperationSpec, type ParsedRequest, type RequestSchemas, type Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { sendAppointment } from './appointment-response';
import * as op from './appointment-move-operations';

type Client = schedulingV1.SchedulingServiceClient;

/** What every move's request carries: the appointment, the If-Match version and the Idempotency-Key. */
interface MoveRequest {
  id: string;
  expectedVersion: number;
  idempotencyKey: string;
}

/** The appointment moves (docs/SCHEDULING.md, "States"): one RPC each, answered with the appointment as it now is. */
export function appointmentMoveRoutes(upstreams: Upstreams): Route[] {
  const moveRoute = <R extends RequestSchemas, Req extends MoveRequest>(
    spec: OperationSpec<R>,
    pick: (client: Client) => UnaryMethod<Req, { appointment?: schedulingV1.Appointment }>,
    fields: (input: ParsedRequest<R>) => Omit<Req, keyof MoveRequest>,
  ) =>
    route(spec, async (input, { res, caller, upstream }) => {
      const headers = input.headers as { 'Idempotency-Key'?: string };
      const base: MoveRequest = {
        id: (input.path as { id: string }).id,
        expectedVersion: input.expectedVersion,
        idempotencyKey: headers['Idempotency-Key'] ?? '',
      };
      const { appointment } = await upstreams.scheduling.call(pick, { ...base, ...fields(input) } as Req, upstream);
      sendAppointment(res, caller, appointment);
    });
  const nothing = () => ({});
  return [
    moveRoute(op.confirmAppointment, (c) => c.confirmAppointment, nothing),
    moveRoute(op.releaseHold, (c) => c.releaseHold, nothing),
    moveRoute(op.rescheduleAppointment, (c) => c.rescheduleAppointment, ({ body }) => ({ slotToken: body.slotToken })),
    moveRoute(op.cancelAppointment, (c) => c.cancelAppointment, ({ body }) => ({ reasonCode: body.reasonCode, reasonText: body.reasonText ?? '' })),
    moveRoute(op.checkInAppointment, (c) => c.checkInAppointment, nothing),
    moveRoute(op.completeAppointment, (c) => c.completeAppointment, nothing),
    moveRoute(op.markNoShow, (c) => c.markNoShow, nothing),
    moveRoute(op.revertNoShow, (c) => c.revertNoShow, nothing),
    moveRoute(op.markEnteredInError, (c) => c.markEnteredInError, ({ body }) => ({ reason: body.reason })),
  ];
}
