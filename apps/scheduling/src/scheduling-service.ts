import { schedulingV1 } from '@libs/contracts';
import { grpcService, type HandlerOptions, type ServiceRegistration } from '@libs/grpc';
import { appointmentReadHandlers } from './appointments/appointment-read-handlers';
import { bookingHandlers } from './appointments/booking-handlers';
import { lifecycleHandlers } from './appointments/lifecycle-handlers';
import { blockHandlers } from './blocks/block-handlers';
import { calendarFeedHandlers } from './feeds/calendar-feed-handlers';
import { locationHandlers } from './locations/location-handlers';
import type { SchedulingDeps } from './scheduling-deps';
import { resourceHandlers } from './resources/resource-handlers';
import { ruleHandlers } from './schedules/rule-handlers';
import { serviceHandlers } from './services/service-handlers';
import { slotHandlers } from './slots/slot-handlers';

/** scheduling.v1.SchedulingService: every handler wrapped for logging, request context and error mapping. */
export function schedulingService(deps: SchedulingDeps, handling: HandlerOptions): ServiceRegistration {
  return grpcService(schedulingV1.SchedulingServiceService, handling, {
    ...locationHandlers(deps),
    ...resourceHandlers(deps),
    ...serviceHandlers(deps),
    ...ruleHandlers(deps),
    ...blockHandlers(deps),
    ...slotHandlers(deps),
    ...bookingHandlers(deps),
    ...lifecycleHandlers(deps),
    ...appointmentReadHandlers(deps),
    ...calendarFeedHandlers(deps),
  });
}
