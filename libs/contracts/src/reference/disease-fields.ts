import type * as referenceV1 from '../generated/reference/v1/reference';
import { defineEntity, type RecordOf } from './fields';

/**
 * A disease of the CTD MEDIC vocabulary, in the order of the CTD file's columns, the gRPC message and the API's
 * JSON. The JSON names are the ones clients have always been given (docs/decisions/0009); `name` and
 * `alternative_ids` are the table's older columns, `AltDiseaseIDs` CTD's header.
 */
export const DISEASE = defineEntity<Omit<referenceV1.Disease, 'id'>>()([
  { name: 'disease_name', kind: 'text', column: 'name' },
  { name: 'disease_id', kind: 'text', key: true, description: 'MeSH or OMIM id, e.g. `MESH:D003920`.' },
  {
    name: 'alternative_disease_ids',
    kind: 'joined',
    column: 'alternative_ids',
    source: 'AltDiseaseIDs',
    description: 'Other ids, separated by `|`.',
  },
  { name: 'definition', kind: 'text' },
  { name: 'parent_ids', kind: 'joined', description: 'Parent ids, separated by `|`.' },
  { name: 'tree_numbers', kind: 'joined', description: 'MeSH tree numbers, separated by `|`.' },
  { name: 'parent_tree_numbers', kind: 'joined', description: 'Separated by `|`.' },
  { name: 'synonyms', kind: 'list' },
  { name: 'slim_mappings', kind: 'list' },
]);

/** A disease as the CTD file gives it and the reference database stores it. */
export type DiseaseRecord = RecordOf<typeof DISEASE>;
