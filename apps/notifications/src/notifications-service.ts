import { notificationsV1 } from '@libs/contracts';
import type { HandlerOptions, ServiceRegistration } from '@libs/grpc';
import { deliveryHandlers } from './deliveries/delivery-handlers';
import type { NotificationsDeps } from './deps';
import { endpointHandlers } from './endpoints/endpoint-handlers';
import { eventTypeHandlers } from './events/event-type-handlers';
import { grpcService } from './house';
import { accountMailHandlers } from './mail/account-mail-handlers';
import { preferenceHandlers } from './mail/preference-handlers';
import type { UnsubscribeTokens } from './mail/unsubscribe-token';

/** notifications.v1.NotificationsService: every handler wrapped for logging, request context and error mapping. */
export function notificationsService(deps: NotificationsDeps & { unsubscribeTokens: UnsubscribeTokens }, handling: HandlerOptions): ServiceRegistration {
  return grpcService(notificationsV1.NotificationsServiceService, handling, {
    ...endpointHandlers(deps),
    ...deliveryHandlers(deps),
    ...eventTypeHandlers(deps),
    ...accountMailHandlers(deps),
    ...preferenceHandlers(deps),
  });
}
