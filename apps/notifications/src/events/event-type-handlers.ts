import { EVENT_TYPES, type notificationsV1 } from '@libs/contracts';
import type { CallContext } from '@libs/grpc';
import { actingUser } from '../acting-user';
import type { NotificationsDeps } from '../deps';

/** The catalogue as the API shows it, from the one list of event types (libs/contracts). */
const CATALOGUE: notificationsV1.EventType[] = Object.entries(EVENT_TYPES).map(([name, declared]) => ({
  name,
  description: declared.description,
  entityType: 'entityType' in declared ? declared.entityType : '',
  bulk: 'bulk' in declared,
}));

export function eventTypeHandlers(deps: NotificationsDeps) {
  return {
    async listEventTypes(_request: notificationsV1.ListEventTypesRequest, context: CallContext): Promise<notificationsV1.ListEventTypesResponse> {
      await actingUser(deps.sequelize, context);
      return { eventTypes: CATALOGUE };
    },
  };
}
