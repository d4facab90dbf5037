export { parseConfig, loadConfig, ConfigError } from './load-config';
export { env } from './env-fields';
export {
  busFields,
  actorSigningFields,
  actorTrustFields,
  DEVELOPMENT_ACTOR_SIGNING_KEY,
  outboxFields,
  cursorSecretField,
  eventTrustFields,
  seedDemoDataField,
  type CommonConfig,
} from './service-fields';
export { addressesOf, gatewayFields, grpcServiceFields } from './declared-fields';
