import type { catalogueV1, ValueSetName } from '@libs/contracts';
import { compact, type FhirResource } from './bundle';
import { codingOf, valueSetResource } from './terminology';
import { EXPANDED_AT } from './value-set';

interface ExpansionAsked {
  filter?: string;
  offset: number;
  count: number;
}

/**
 * ValueSet/$expand's answer: the value set with one page of its expansion.
 * The parameters used are echoed (FHIR's expansion.parameter), so a client
 * sees the filter, offset and count the page and its total are for.
 */
export function expansionValueSet(name: ValueSetName, asked: ExpansionAsked, page: catalogueV1.ExpandValueSetResponse): FhirResource {
  const parameter = [
    ...(asked.filter === undefined ? [] : [{ name: 'filter', valueString: asked.filter }]),
    { name: 'offset', valueInteger: asked.offset },
    { name: 'count', valueInteger: asked.count },
  ];
  return {
    ...valueSetResource(name),
    expansion: compact({
      timestamp: EXPANDED_AT,
      total: page.total,
      offset: asked.offset,
      parameter,
      contains: page.concepts.map((concept) => ({ ...codingOf(name, concept.code), display: concept.display })),
    }),
  };
}
