export { FieldChecks, isIsoDate, isUuid } from './fields';
export { notFound, requireUuid } from './ids';
export { cursorPosition, DEFAULT_PAGE, MAX_PAGE, pageLimit, pageOf } from './paging';
export { checkVersion } from './versions';
