import { referenceV1 } from '@libs/contracts';

/** A disease search request with every field at its default, but those given. */
export const searchRequest = (fields: Partial<referenceV1.SearchDiseasesRequest>): referenceV1.SearchDiseasesRequest => ({
  name: '',
  exact: false,
  sortByName: false,
  order: referenceV1.SortOrder.SORT_ORDER_UNSPECIFIED,
  batchSize: 0,
  cursor: '',
  namesOnly: false,
  ...fields,
});
