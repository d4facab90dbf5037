import type { Sequelize, Transaction } from 'sequelize';
import {
  conditionSourceId,
  drugSourceId,
  foodInteractionSourceId,
  labTestSourceId,
  normaliseName,
  upsertConditions,
  upsertDosages,
  upsertDrugCategories,
  upsertDrugs,
  upsertFoodInteractions,
  upsertIndications,
  upsertLabTests,
  upsertPremises,
} from '@libs/reference-db';
import { readCatalogueFiles } from './catalogue-files';

/** Writes the bundled catalogue (everything but diseases) and returns how many records of each it wrote. */
export async function loadCatalogue(
  sequelize: Sequelize,
  dataDir: string,
  transaction: Transaction,
): Promise<Record<string, number>> {
  const files = await readCatalogueFiles(dataDir);

  await upsertLabTests(sequelize, files.labTests.map((t) => ({ ...t, sourceId: labTestSourceId(t) })), transaction);

  await upsertDrugCategories(sequelize, files.categories.map(({ code, name }) => ({ code, name })), transaction);

  const drugs = files.drugs.map((d) => ({ ...d, sourceId: drugSourceId(d) }));
  await upsertDrugs(sequelize, drugs, transaction);
  const dosages = drugs.flatMap((d) =>
    d.dosages.map((dosage) => ({
      ...dosage,
      // Form, strength and route identify a dosage within a drug, so an edit of the file updates it in place.
      sourceId: `default:${d.sourceId}:${normaliseName(`${dosage.form}|${dosage.strength}|${dosage.adminMethod}`)}`,
      drugSourceId: d.sourceId,
    })),
  );
  await upsertDosages(sequelize, dosages, transaction);

  // Conditions and interactions name their drugs; the drug list supplies the DrugBank ids.
  const drugbankIdOf = new Map(files.drugs.map((d) => [normaliseName(d.name), d.drugbankId]));
  const conditions = files.conditions.map((c) => ({ ...c, sourceId: conditionSourceId(c) }));
  await upsertConditions(sequelize, conditions, transaction);
  const indications = conditions.flatMap((c) =>
    c.indications.map((i) => ({
      conditionSourceId: c.sourceId,
      drugName: i.drug,
      drugbankId: drugbankIdOf.get(normaliseName(i.drug)),
      type: i.type,
    })),
  );
  await upsertIndications(sequelize, indications, transaction);

  const interactions = files.foodInteractions.map(({ drug, ...rest }) => {
    const named = { ...rest, drugName: drug, drugbankId: drugbankIdOf.get(normaliseName(drug)) };
    return { ...named, sourceId: foodInteractionSourceId(named) };
  });
  await upsertFoodInteractions(sequelize, interactions, transaction);

  await upsertPremises(
    sequelize,
    files.premises.map(({ code, ...p }) => ({ ...p, sourceId: code })),
    transaction,
  );

  return {
    labTests: files.labTests.length,
    drugCategories: files.categories.length,
    drugs: drugs.length,
    dosages: dosages.length,
    conditions: conditions.length,
    indications: indications.length,
    foodInteractions: interactions.length,
    premises: files.premises.length,
  };
}
