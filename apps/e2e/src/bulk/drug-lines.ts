import { api } from '../http';

interface DrugSummary {
  id: string;
  name: string;
}

/** Drugs read at once, as a client walking them would. */
const CONCURRENCY = 8;

/** Every drug, walked page by page through GET /api/v1/drugs: in name order, as the bulk lines of their dosages and food interactions are. */
async function everyDrug(gatewayUrl: string, key: string): Promise<DrugSummary[]> {
  const drugs: DrugSummary[] = [];
  let cursor: string | undefined;
  do {
    const { body } = await api(gatewayUrl, `/api/v1/drugs${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
    drugs.push(...body.drugs);
    cursor = body.nextCursor;
  } while (cursor);
  return drugs;
}

const byId = (a: { id: string }, b: { id: string }) => Number(a.id.replace(/^\D+/, '')) - Number(b.id.replace(/^\D+/, ''));

/**
 * The lines the bulk downloads of dosages and food interactions must hold, made from each drug's own endpoints
 * (GET /api/v1/drugs/:id, /api/v1/drugs/:id/food-interactions, JSON and FHIR): drug by drug in name order, each
 * drug's records by id.
 */
export async function linesFromEachDrug(gatewayUrl: string, key: string) {
  const drugs = await everyDrug(gatewayUrl, key);
  const perDrug: { dosages: unknown[]; interactions: unknown[]; resources: unknown[] }[] = [];
  for (let start = 0; start < drugs.length; start += CONCURRENCY) {
    const read = drugs.slice(start, start + CONCURRENCY).map(async (drug) => {
      const path = `/api/v1/drugs/${drug.id}`;
      const [detail, interactions, resources] = await Promise.all([
        api(gatewayUrl, path, { key }),
        api(gatewayUrl, `${path}/food-interactions`, { key }),
        api(gatewayUrl, `${path}/food-interactions?_format=fhir`, { key }),
      ]);
      return {
        dosages: [...detail.body.dosages].sort(byId).map(({ id, ...dosage }) => ({ id, drugId: drug.id, drugName: drug.name, ...dosage })),
        interactions: [...interactions.body.interactions].sort(byId).map(({ id, ...rest }) => ({ id, drug: interactions.body.drug, ...rest })),
        resources: resources.body.entry.map((entry: { resource: { id: string } }) => entry.resource).sort(byId),
      };
    });
    perDrug.push(...(await Promise.all(read)));
  }
  return {
    drugs: drugs.length,
    dosages: perDrug.flatMap((drug) => drug.dosages),
    interactions: perDrug.flatMap((drug) => drug.interactions),
    interactionResources: perDrug.flatMap((drug) => drug.resources),
  };
}
