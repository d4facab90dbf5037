export { FieldChecks, given, isUuid, parseInput, presentFields } from './fields';
export { notFound, requireUuid } from './ids';
export { checkVersion } from './versions';
