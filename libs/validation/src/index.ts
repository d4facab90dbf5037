export { FieldChecks, isIsoDate, isUuid } from './fields';
export { notFound, requireUuid } from './ids';
export { checkVersion } from './versions';
