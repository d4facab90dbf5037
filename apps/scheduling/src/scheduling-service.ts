import type { schedulingV1 } from '@libs/contracts';
import { serviceImplementation, type HandlerOptions } from '@libs/grpc';
import { appointmentReadHandlers } from './appointments/appointment-read-handlers';
import { bookingHandlers } from './appointments/booking-handlers';
import { lifecycleHandlers } from './appointments/lifecycle-handlers';
import { blockHandlers } from './blocks/block-handlers';
import { locationHandlers } from './locations/location-handlers';
import type { SchedulingDeps } from './scheduling-deps';
import { resourceHandlers } from './resources/resource-handlers';
import { ruleHandlers } from './schedules/rule-handlers';
import { serviceHandlers } from './services/service-handlers';
import { slotHandlers } from './slots/slot-handlers';

/** The SchedulingService gRPC implementation: every handler wrapped for logging, request context and error mapping. */
export function schedulingService(deps: SchedulingDeps, handling: HandlerOptions): schedulingV1.SchedulingServiceServer {
  // The record type makes a missing RPC a compile error.
  return serviceImplementation<schedulingV1.SchedulingServiceServer>(handling, {
    ...locationHandlers(deps),
    ...resourceHandlers(deps),
    ...serviceHandlers(deps),
    ...ruleHandlers(deps),
    ...blockHandlers(deps),
    ...slotHandlers(deps),
    ...bookingHandlers(deps),
    ...lifecycleHandlers(deps),
    ...appointmentReadHandlers(deps),
  });
}
