import { REFERENCE_LIMITS, referenceV1, type BulkDataset, type catalogueV1 } from '@libs/contracts';
import type { UpstreamCall } from '../platform/upstreams/upstream';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { category } from './category-routes';
import { condition } from './condition-routes';
import { dosageJson } from './dosage-json';
import { drug } from './drug-routes';
import { foodInteraction } from './fhir/food-interaction';
import { location } from './fhir/location';
import { dosageKnowledge, drugKnowledge } from './fhir/medication-knowledge';
import { observationDefinition } from './fhir/observation-definition';
import { foodInteractionJson, interactionDrugJson } from './food-interaction-json';
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
 * filter, every record), or for dosages and food interactions, which are only searched by drug, a list of them
 * all in the same order; each record as that operation's detailed JSON, and as the FHIR resource its searchset
 * entries hold where it has one of its own. Diseases, categories and conditions are the concepts of a ValueSet in
 * FHIR (docs/REFERENCE.md, "FHIR"), no resource per record: they download as JSON alone.
 */
export interface BulkSource<T> {
  read(upstreams: Upstreams, cursor: string, call: UpstreamCall): Promise<RecordPage<T>>;
  json(record: T): unknown;
  fhir?(record: T): unknown;
}

const interactionDrug = (i: catalogueV1.DrugFoodInteraction): catalogueV1.DrugSummary => ({
  id: i.drugId,
  name: i.drugName,
  drugbankId: i.drugDrugbankId,
});

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
  dosages: source({
    async read({ catalogue }, cursor, call) {
      const page = await catalogue.call((client) => client.listAllDosages, { cursor }, call);
      // A record per dosage, with its drug: a group only gathers one drug's consecutive dosages.
      const records = page.groups.flatMap((g) => g.dosages.map((dosage) => ({ drug: { id: g.drugId, name: g.drugName }, dosage })));
      return { records, nextCursor: page.nextCursor };
    },
    json: ({ drug: d, dosage }) => {
      const { id, ...fields } = dosageJson(dosage);
      return { id, drugId: d.id, drugName: d.name, ...fields };
    },
    fhir: ({ drug: d, dosage }) => dosageKnowledge(d, dosage),
  }),
  'food-interactions': source({
    async read({ catalogue }, cursor, call) {
      const page = await catalogue.call((client) => client.listAllFoodInteractions, { cursor }, call);
      return { records: page.interactions, nextCursor: page.nextCursor };
    },
    json: (i) => {
      const { id, ...fields } = foodInteractionJson(i);
      return { id, drug: interactionDrugJson(interactionDrug(i)), ...fields };
    },
    fhir: (i) => foodInteraction(interactionDrug(i), i),
  }),
};
