export {
  busTopology,
  consumerTopologies,
  declareTopology,
  EVENT_CONSUMERS,
  EVENT_PRODUCERS,
  EVENT_STREAMS,
  queueArguments,
  STREAM_PUBLISHERS,
  type BusTopology,
  type EventStream,
} from './topology';
export { brokerPermissions, type BrokerPermission } from './permissions';
export { TopologyKeeper, type BusSide } from './topology-keeper';
export { connectBus, type BusConnection } from './connection';
export { ConfirmPublisher, ReturnedMessageError, type PublishOptions } from './confirm-publisher';
export { startConsumer, type ConsumerOutcome, type Consumer } from './consumer';
export { MESSAGE_HEADERS, messageHeaders } from './message-headers';
export { PassiveChecks } from './passive-checks';
export { watchSubscription, type QueueState } from './watch-subscription';
export { QueueWitness, type QueueObservation } from './queue-witness';
export { DEFAULT_STORE_RETRY, readSignedEvent, storePatiently, type EventCounters, type StoreRetryOptions } from './event-message';
export { StoreTogether } from './store-together';
export { eventKeyEnv, generateEventSecrets, trustedKeysOf, type EventSecrets } from './event-keys';
