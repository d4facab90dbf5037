export { parseConfig, loadConfig, ConfigError } from './load-config';
export { env } from './env-fields';
export {
  commonFields,
  grpcServiceFields,
  busFields,
  metricsFields,
  internalAuthFields,
  outboxFields,
  type CommonConfig,
} from './service-fields';
