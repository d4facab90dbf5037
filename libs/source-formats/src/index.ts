export { readCtdDiseases, type CtdDisease } from './ctd-diseases';
export { readDelimited, readWithHeader, type DelimitedOptions } from './delimited';
export { openTextLines, openTextStream, type ParsedRow, type ReadOptions } from './text-lines';
