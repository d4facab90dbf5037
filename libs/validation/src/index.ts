export { FieldChecks, given, isIsoDate, isUuid, parseInput } from './fields';
export { notFound, requireUuid } from './ids';
export { checkVersion } from './versions';
