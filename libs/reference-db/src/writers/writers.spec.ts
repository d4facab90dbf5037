import { QueryTypes } from 'sequelize';
import { createScratchDatabase, diseaseRecord, type ScratchDatabase } from '@libs/testing';
import {
  MissingReferenceError,
  drugSourceId,
  migrations,
  upsertConditions,
  upsertDiseases,
  upsertDosages,
  upsertDrugCategories,
  upsertDrugs,
  upsertFoodInteractions,
  upsertIndications,
  upsertLabTests,
  upsertPremises,
} from '../index';

describe('reference writers', () => {
  let db: ScratchDatabase;
  const rows = <T extends object>(sql: string) => db.sequelize.query<T>(sql, { type: QueryTypes.SELECT });
  const inTransaction = <T>(work: (t: Parameters<typeof upsertDrugs>[2]) => Promise<T>) =>
    db.sequelize.transaction((transaction) => work(transaction));

  beforeAll(async () => {
    db = await createScratchDatabase('refdb', migrations);
  });
  afterAll(() => db.drop());

  it('upserts diseases by their id, the last of repeats winning, and rebuilds their search terms', async () => {
    const gout = { diseaseId: 'MESH:D006073', diseaseName: 'Gout', treeNumbers: ['C05.550.114.423'] };
    await inTransaction((t) => upsertDiseases(db.sequelize, [diseaseRecord({ ...gout, synonyms: ['Podagra'] })], t));
    await inTransaction((t) =>
      upsertDiseases(
        db.sequelize,
        [diseaseRecord({ ...gout, synonyms: ['Gouty arthritis'] }), diseaseRecord({ ...gout, synonyms: ['Gouts', 'GOUT'] })],
        t,
      ),
    );
    expect(await rows('SELECT disease_id, name, tree_numbers, synonyms FROM diseases')).toEqual([
      { disease_id: 'MESH:D006073', name: 'Gout', tree_numbers: ['C05.550.114.423'], synonyms: ['Gouts', 'GOUT'] },
    ]);
    expect(await rows('SELECT term, is_name FROM disease_terms ORDER BY term')).toEqual([
      { term: 'gout', is_name: true },
      { term: 'gouts', is_name: false },
    ]);
  });

  it('upserts drugs and dosages by source id, keeping stored values that a later source leaves blank', async () => {
    const warfarin = { sourceId: 'DB00682', name: 'Warfarin', drugbankId: 'DB00682', description: 'Vitamin K antagonist.', atcCodes: ['B01AA03'] };
    await inTransaction(async (t) => {
      await upsertDrugs(db.sequelize, [warfarin], t);
      await upsertDosages(db.sequelize, [{ sourceId: 'fda:1-1', drugSourceId: 'DB00682', form: 'Tablet', strength: '5 mg' }], t);
    });
    await inTransaction(async (t) => {
      await upsertDrugs(db.sequelize, [{ sourceId: 'DB00682', name: 'Warfarin sodium' }], t);
      await upsertDosages(db.sequelize, [{ sourceId: 'fda:1-1', drugSourceId: 'DB00682', form: 'Tablet', strength: '2 mg' }], t);
    });
    expect(await rows('SELECT name, drugbank_id, description FROM drugs')).toEqual([
      { name: 'Warfarin sodium', drugbank_id: 'DB00682', description: 'Vitamin K antagonist.' },
    ]);
    expect(await rows('SELECT atc_code FROM drug_atc_codes')).toEqual([{ atc_code: 'B01AA03' }]);
    expect(await rows('SELECT strength FROM dosages')).toEqual([{ strength: '2 mg' }]);
  });

  it('refuses a dosage whose drug does not exist, naming it', async () => {
    await expect(
      inTransaction((t) =>
        upsertDosages(db.sequelize, [{ sourceId: 'fda:9-9', drugSourceId: drugSourceId({ name: 'Nodrug' }), form: 'Tablet' }], t),
      ),
    ).rejects.toThrow(new MissingReferenceError('drugs', ['name:nodrug']));
  });

  it('derives ATC level and parent from the code, and takes the last of repeated codes in one batch', async () => {
    await inTransaction((t) =>
      upsertDrugCategories(
        db.sequelize,
        [
          { code: 'B', name: 'BLOOD' },
          { code: 'B01AA03', name: 'warfarin' },
          { code: 'B01AA03', name: 'Warfarin' },
        ],
        t,
      ),
    );
    expect(await rows('SELECT code, name, level, parent_code FROM drug_categories ORDER BY code')).toEqual([
      { code: 'B', name: 'BLOOD', level: 1, parent_code: null },
      { code: 'B01AA03', name: 'Warfarin', level: 5, parent_code: 'B01AA' },
    ]);
    await expect(inTransaction((t) => upsertDrugCategories(db.sequelize, [{ code: 'B1', name: 'x' }], t))).rejects.toThrow(
      'not an ATC code',
    );
  });

  it('links indications to conditions and refuses unknown conditions', async () => {
    await inTransaction(async (t) => {
      await upsertConditions(db.sequelize, [{ sourceId: 'DOID:9352', doid: 'DOID:9352', name: 'Type 2 diabetes mellitus' }], t);
      await upsertIndications(
        db.sequelize,
        [
          { conditionSourceId: 'DOID:9352', drugName: 'Metformin', drugbankId: 'DB00331', type: 'symptomatic' },
          { conditionSourceId: 'DOID:9352', drugName: 'Metformin', drugbankId: 'DB00331', type: 'treats' },
        ],
        t,
      );
    });
    expect(await rows('SELECT drug_key, type FROM indications')).toEqual([{ drug_key: 'DB00331', type: 'treats' }]);
    await expect(
      inTransaction((t) =>
        upsertIndications(db.sequelize, [{ conditionSourceId: 'DOID:0', drugName: 'X', type: 'treats' }], t),
      ),
    ).rejects.toThrow('DOID:0');
  });

  it('stores lab tests, premises and food interactions once however often they are written', async () => {
    const write = () =>
      inTransaction(async (t) => {
        await upsertLabTests(
          db.sequelize,
          [{ sourceId: 'loinc:2823-3', loinc: '2823-3', name: 'Potassium', categoryName: 'Clinical chemistry',
             subCategoryName: 'Electrolytes', normalRange: '3.5-5.1', units: 'mmol/L',
             testResults: [{ name: 'Potassium', normalRange: '3.5-5.1', units: 'mmol/L' }] }],
          t,
        );
        await upsertPremises(
          db.sequelize,
          [{ sourceId: 'PRM-1', name: 'Sample Pharmacy', type: 'pharmacy', sampleData: true,
             address: { line1: '1 Main St', city: 'Nairobi', country: 'KE' }, latitude: -1.28, longitude: 36.82 }],
          t,
        );
        await upsertFoodInteractions(
          db.sequelize,
          [{ sourceId: 'DB00682:1', drugName: 'Warfarin', drugbankId: 'DB00682', advice: 'Keep vitamin K intake steady.' }],
          t,
        );
      });
    await write();
    await write();
    expect(await rows('SELECT search_text, test_results FROM lab_tests')).toEqual([
      { search_text: 'Potassium\nClinical chemistry\nElectrolytes', test_results: [{ name: 'Potassium', normalRange: '3.5-5.1', units: 'mmol/L' }] },
    ]);
    expect(await rows('SELECT name, address, latitude FROM premises')).toEqual([
      { name: 'Sample Pharmacy', address: { line1: '1 Main St', city: 'Nairobi', country: 'KE' }, latitude: -1.28 },
    ]);
    expect(await rows('SELECT count(*)::int AS n FROM food_interactions')).toEqual([{ n: 1 }]);
  });
});
