export { busTopology, declareTopology, EVENT_STREAMS, type BusTopology, type EventStream } from './topology';
export { TopologyKeeper } from './topology-keeper';
export { connectBus, type BusConnection } from './connection';
export { ConfirmPublisher, ReturnedMessageError, type PublishOptions } from './confirm-publisher';
export { startConsumer, type ConsumerOutcome, type Consumer } from './consumer';
export { MESSAGE_HEADERS, messageHeaders } from './message-headers';
export { PassiveChecks } from './passive-checks';
export { watchSubscription, type QueueState } from './watch-subscription';
export { QueueWitness, type QueueObservation } from './queue-witness';
