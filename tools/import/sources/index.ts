import type { ImportSource } from '../import-source';
import { atcSource } from './atc';
import { ctdSource } from './ctd';
import { drugsAtFdaSource } from './drugsatfda';
import { foodSource } from './food';
import { indicationsSource } from './indications';
import { labsSource } from './labs';
import { premisesSource } from './premises';

export { ctdSource };

/** Every source the import tool reads, by the name given on the command line. */
export const SOURCES: Record<string, ImportSource<never>> = Object.fromEntries(
  [ctdSource, drugsAtFdaSource, atcSource, indicationsSource, foodSource, labsSource, premisesSource].map((source) => [
    source.name,
    source as ImportSource<never>,
  ]),
);
