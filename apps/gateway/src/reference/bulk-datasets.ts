import { REFERENCE_LIMITS, referenceV1, type BulkDataset } from '@libs/contracts';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { category } from './category-routes';
import { condition } from './condition-routes';
import { drug } from './drug-routes';
import { location } from './fhir/location';
import { drugKnowledge } from './fhir/medication-knowledge';
import { observationDefinition } from './fhir/observation-definition';
import { labTest } from './lab-routes';
import { premise } from './premise-routes';
import { diseaseJson } from './schemas';

/** One page of a dataset as the reference service lists it, in keyset order. */
interface RecordPage<T> {
  records: T[];
  nextCursor: string;
}

/**
 * How a dataset is read for a bulk download: page by page through the list its search operation walks (with no
 * filter, every record), each record as that operation's detailed JSON, and as the FHIR resource its searchset
 * entries hold where it has one of its own. Diseases, categories and conditions are the concepts of a ValueSet in
 * FHIR (docs/REFERENCE.md, "FHIR"), no resource per record: they download as JSON alone.
 */
export interface BulkSource<T> {
  read(upstreams: Upstreams, cursor: string, call: UpstreamCall): Promise<RecordPage<T>>;
  json(record: T): unknown;
  fhir?(record: T): unknown;
}

const source = <T>(declared: BulkSource<T>): BulkSource<unknown> => declared as BulkSource<unknown>;

export const BULK_SOURCES: Record<BulkDataset, BulkSource<unknown>> = {
  diseases: source({
    async read({ reference }, cursor, call) {
      const request = { ...referenceV1.SearchDiseasesRequest.create(), batchSize: REFERENCE_LIMITS.diseaseBatch.max, cursor };
      const page = await reference.call((client) => client.searchDiseases, request, call);
      return { records: page.diseases, nextCursor: page.nextCursor };
    },
    json: diseaseJson,
  }),
  drugs: source({
    async read({ catalogue }, cursor, call) {
      const page = await catalogue.call((client) => client.listDrugs, { name: '', cursor }, call);
      return { records: page.drugs, nextCursor: page.nextCursor };
    },
    json: drug,
    fhir: (d) => drugKnowledge(d),
  }),
  labs: source({
    async read({ catalogue }, cursor, call) {
      const page = await catalogue.call((client) => client.searchLabTests, { terms: [], cursor }, call);
      return { records: page.tests, nextCursor: page.nextCursor };
    },
    json: (t) => labTest(t, true),
    fhir: observationDefinition,
  }),
  categories: source({
    async read({ catalogue }, cursor, call) {
      const page = await catalogue.call((client) => client.listDrugCategories, { terms: [], includeDrugs: false, cursor }, call);
      return { records: page.categories, nextCursor: page.nextCursor };
    },
    json: (c) => category(c, false),
  }),
  conditions: source({
    async read({ catalogue }, cursor, call) {
      const page = await catalogue.call((client) => client.listConditions, { name: '', includeIndications: true, cursor }, call);
      return { records: page.conditions, nextCursor: page.nextCursor };
    },
    json: (c) => condition(c, true),
  }),
  premises: source({
    async read({ catalogue }, cursor, call) {
      const page = await catalogue.call((client) => client.listPremises, { terms: [], cursor }, call);
      return { records: page.premises, nextCursor: page.nextCursor };
    },
    json: (p) => premise(p, true),
    fhir: location,
  }),
};
