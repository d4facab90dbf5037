import { uncached, type Scenario } from '../context';

/** Word prefixes a form's code picker sends, common ("dia", thousands of matches) to rare. */
const FILTERS = ['dia', 'syn', 'card', 'neur', 'alzh', 'hyperten', 'leuk', 'carcin', 'zygo', 'type 2'];

/**
 * FHIR ValueSet/$expand of the diseases with a filter (docs/SEARCH.md, "FHIR $expand filter"): the first page of
 * each filter, and a page deep into "syn" (offset 2,000), in name order with the total counted.
 */
export const valueSetExpand: Scenario = async (context) => {
  const url = encodeURIComponent('urn:clinical-finance:value-set:diseases');
  const paths = [
    ...FILTERS.map((filter) => `/api/v1/ValueSet/$expand?url=${url}&filter=${encodeURIComponent(filter)}&count=20`),
    `/api/v1/ValueSet/$expand?url=${url}&filter=syn&count=20&offset=2000`,
  ];
  context.record({
    scenario: '$expand diseases with a filter',
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      paths.map((path) => ({ path, headers: uncached(context.keys.reader) })),
    ),
  });
};
