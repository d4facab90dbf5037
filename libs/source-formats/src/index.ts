export { readCtdDiseases, type CtdDisease } from './ctd-diseases';
export { openTextLines, type ParsedRow } from './text-lines';
