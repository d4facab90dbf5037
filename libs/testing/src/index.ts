export { startSystem, type RunningSystem, type SystemOptions } from './system';
export { signedHeaders, signedMessage } from './signed-events';
export { instanceEnv } from './system-wiring';
export { deleteBusTopology, dropDatabases, freePort, uniqueNamespace, AMQP_URL, POSTGRES_URL } from './resources';
export { createScratchDatabase, type ScratchDatabase } from './scratch-database';
export { startTcpProxy, type TcpProxy } from './tcp-proxy';
export { waitFor } from './wait-for';
export { sharedDataDir, sharedDataFile } from './shared-data';
export { startDatabaseOutage, dropDatabaseConnections, type DatabaseOutage } from './database-outage';
export { signUp } from './sign-up';
export { raiseKeyLimits } from './generous-limits';
export { mailedLinkToken, verifyEmail, type AccountTemplate } from './mailed-link';
export { withPgClient } from './pg-client';
export { isAlive } from './process-alive';
export { peakRssMb } from './peak-rss';
export { diseaseRecord } from './disease-record';
export {
  selfSignedCertificate,
  startReceiver,
  type ReceivedDelivery,
  type Receiver,
  type ReceiverOptions,
  type Respond,
  type VerifiedDelivery,
  verifyingReceiver,
} from './webhook-receiver';
export { startSmtpReceiver, type ReceivedMail, type SmtpReceiver, type SmtpReceiverOptions } from './smtp-receiver';
export { actingAs } from './acting-as';
