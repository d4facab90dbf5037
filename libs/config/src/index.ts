export { parseConfig, loadConfig, ConfigError } from './load-config';
export { env } from './env-fields';
export {
  commonFields,
  grpcServiceFields,
  busFields,
  metricsFields,
  internalAuthFields,
  outboxFields,
  cursorSecretField,
  seedDemoDataField,
  type CommonConfig,
} from './service-fields';
