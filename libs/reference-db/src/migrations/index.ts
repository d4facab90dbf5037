import type { Migration } from '@libs/db';
import { m0001Diseases } from './0001-diseases';
import { m0002Catalogue } from './0002-catalogue';
import { m0003DiseaseSearch } from './0003-disease-search';
import { m0004TrigramPendingLists } from './0004-trigram-pending-lists';
import { m0005TermStatistics } from './0005-term-statistics';
import { m0006DrugSearch } from './0006-drug-search';
import { m0007CodeLookup } from './0007-code-lookup';
import { m0008TypeAhead } from './0008-type-ahead';
import { m0009DatasetVersions } from './0009-dataset-versions';
import { m0010CatalogueTypeAhead } from './0010-catalogue-type-ahead';
import { m0011BulkDosagesFood } from './0011-bulk-dosages-food';
import { m0012SuggestVersions } from './0012-suggest-versions';

/** Every migration, in order. Never edit one that has shipped: add the next. */
export const migrations: Migration[] = [
  m0001Diseases,
  m0002Catalogue,
  m0003DiseaseSearch,
  m0004TrigramPendingLists,
  m0005TermStatistics,
  m0006DrugSearch,
  m0007CodeLookup,
  m0008TypeAhead,
  m0009DatasetVersions,
  m0010CatalogueTypeAhead,
  m0011BulkDosagesFood,
  m0012SuggestVersions,
];
