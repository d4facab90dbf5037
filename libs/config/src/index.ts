export { parseConfig, loadConfig, ConfigError } from './load-config';
export { env } from './env-fields';
