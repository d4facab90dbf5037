import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import {
  readCtdDiseases,
  readDrugbankFood,
  readDrugsAtFdaProducts,
  readIndications,
  readLabTestsCsv,
  readPremisesCsv,
  readWhoAtc,
  repairProductFields,
  type ParsedRow,
} from './index';

// The fixtures are written by the project in each source's published layout; they hold no source data.
const fixture = (...parts: string[]) => join(__dirname, '../fixtures', ...parts);

async function collect<T>(rows: AsyncIterable<ParsedRow<T>>) {
  const records: { line: number; record: T }[] = [];
  const errors: { line: number; error: string }[] = [];
  for await (const row of rows) {
    if ('error' in row) errors.push(row);
    else records.push(row);
  }
  return { records, errors };
}

describe('CTD diseases', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ctd-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the tab-separated layout, splitting | lists, and rejects bad rows with their line', async () => {
    const { records, errors } = await collect(readCtdDiseases(fixture('ctd-sample.tsv')));
    expect(records.map((r) => r.record.diseaseId)).toEqual(['MESH:D900001', 'MESH:D900002']);
    expect(records[0]).toEqual({
      line: 6,
      record: {
        diseaseName: 'Sample Fever',
        diseaseId: 'MESH:D900001',
        alternativeDiseaseIds: ['DO:DOID:1', 'OMIM:100001'],
        definition: 'A made-up fever, for tests.',
        parentIds: ['MESH:D900000'],
        treeNumbers: ['C01.001/D900001'],
        parentTreeNumbers: ['C01.001'],
        synonyms: ['Test fever', 'Pretend pyrexia'],
        slimMappings: ['Infection'],
      },
    });
    expect(errors).toEqual([
      { line: 8, error: expect.stringMatching(/malformed DiseaseID "NOT-AN-ID"/) },
      { line: 9, error: 'expected 9 fields, found 3' },
    ]);
  });

  it('reads the same file gzipped', async () => {
    const gz = join(dir, 'ctd.tsv.gz');
    writeFileSync(gz, gzipSync(readFileSync(fixture('ctd-sample.tsv'))));
    const { records } = await collect(readCtdDiseases(gz));
    expect(records.map((r) => r.record.diseaseId)).toEqual(['MESH:D900001', 'MESH:D900002']);
  });

  it('reads the CSV layout with quoted commas and a # inside a field', async () => {
    const { records, errors } = await collect(readCtdDiseases(fixture('ctd-sample.csv')));
    expect(records[0].record).toMatchObject({
      diseaseName: 'Sample Fever, Recurrent',
      definition: 'Comes back, then goes; a # inside is text.',
      synonyms: ['Test fever again', 'Pretend pyrexia'],
    });
    expect(records[1].record.diseaseId).toBe('MESH:D900002');
    expect(errors).toEqual([{ line: 6, error: 'expected 9 fields, found 2' }]);
  });

  it('stops with an error naming the file when the header is not CTD', async () => {
    const wrong = join(dir, 'wrong.tsv');
    writeFileSync(wrong, '# Fields:\n# Name\tId\n');
    await expect(collect(readCtdDiseases(wrong))).rejects.toThrow(/wrong\.tsv:2: unexpected header/);
  });
});

describe('Drugs@FDA products', () => {
  it('joins application and marketing status, repairs stray tabs and rejects malformed rows', async () => {
    const { records, errors } = await collect(readDrugsAtFdaProducts(fixture('drugsatfda', 'Products.txt')));
    expect(records.map((r) => [r.line, r.record.applNo, r.record.productNo])).toEqual([
      [2, '100001', '001'],
      [3, '100001', '002'],
      [4, '100002', '001'],
      [5, '100003', '001'],
    ]);
    expect(records[0].record).toEqual({
      applNo: '100001',
      productNo: '001',
      form: 'TABLET',
      route: 'ORAL',
      strength: '10MG;20MG',
      referenceDrug: true,
      drugName: 'SAMPLEX',
      activeIngredient: 'SAMPLEMIDE; TESTOLOL',
      referenceStandard: true,
      applType: 'NDA',
      sponsorName: 'SAMPLE PHARMA',
      marketingStatus: 'Prescription',
    });
    expect(records[1].record).toMatchObject({ form: 'SMART PATCH', route: 'TRANSDERMAL', marketingStatus: 'Discontinued' });
    expect(records[2].record).toMatchObject({ drugName: 'TESTAB', referenceStandard: false, marketingStatus: '' });
    expect(records[3].record).toMatchObject({ form: 'VIAL', route: '', applType: '' });
    expect(errors).toEqual([{ line: 6, error: expect.stringMatching(/6-digit ApplNo/) }]);
  });

  it('leaves a row that no single join repairs for rejection', () => {
    expect(repairProductFields(['100001', '001', 'A', 'B', 'C', 'D', 'E', 'F', 'G'])).toBeUndefined();
  });

  it('fails the whole import when a side file is missing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fda-'));
    try {
      copyFileSync(fixture('drugsatfda', 'Products.txt'), join(dir, 'Products.txt'));
      await expect(collect(readDrugsAtFdaProducts(join(dir, 'Products.txt')))).rejects.toThrow(/Applications\.txt is missing/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('WHO ATC', () => {
  it('reads every DDD row with NA as empty and the level from the code length', async () => {
    const { records, errors } = await collect(readWhoAtc(fixture('atc-sample.csv')));
    expect(records.map((r) => [r.record.code, r.record.level])).toEqual([
      ['Z', 1], ['Z01', 2], ['Z01A', 3], ['Z01AA', 4], ['Z01AA01', 5], ['Z01AA01', 5],
    ]);
    expect(records[0].record).toMatchObject({ ddd: '', unit: '', route: '', note: '' });
    expect(records[5].record).toMatchObject({ ddd: '5', unit: 'mg', route: 'P', note: 'given once, slowly' });
    expect(errors).toEqual([{ line: 8, error: 'malformed ATC code "Z1"' }]);
  });
});

describe('PharmacotherapyDB indications', () => {
  it('reads each indication and rejects malformed ids', async () => {
    const { records, errors } = await collect(readIndications(fixture('indications-sample.tsv')));
    expect(records.map((r) => r.record.category)).toEqual(['DM', 'SYM', 'NOT']);
    expect(records[0].record).toEqual({
      doid: 'DOID:9000001', drugbankId: 'DB90001', disease: 'sample fever', drug: 'Samplemide', category: 'DM', curators: 2, resources: 1,
    });
    expect(errors).toEqual([{ line: 5, error: 'malformed drugbank_id "DB9"' }]);
  });
});

describe('DrugBank food interactions', () => {
  it('reads headerless rows with quoted advice', async () => {
    const { records, errors } = await collect(readDrugbankFood(fixture('food-sample.csv')));
    expect(records.map((r) => r.record)).toEqual([
      { drugbankId: 'DB90001', drugName: 'Samplemide', advice: 'Take with food, not with milk.' },
      { drugbankId: 'DB90001', drugName: 'Samplemide', advice: 'Avoid sample juice.' },
    ]);
    expect(errors).toEqual([{ line: 3, error: 'malformed DrugBank id "XX123"' }]);
  });
});

describe('lab test CSV layout', () => {
  it('reads tests with their result components', async () => {
    const { records, errors } = await collect(readLabTestsCsv(fixture('labs-sample.csv')));
    expect(records[0].record).toMatchObject({
      loinc: '99999-1',
      name: 'Sample count',
      description: 'Counts sample cells, for tests.',
      results: [
        { name: 'Sample cells', normalRange: '4.0-10.0', units: '10^9/L' },
        { name: 'Other cells', normalRange: '0.1-1.0', units: '10^9/L' },
      ],
    });
    expect(records[1].record).toMatchObject({ loinc: '', name: 'Sample panel', results: [] });
    expect(errors).toEqual([{ line: 4, error: 'malformed LOINC code "1"' }]);
  });
});

describe('premises CSV layout', () => {
  it('reads premises and rejects unknown types and half-given coordinates', async () => {
    const { records, errors } = await collect(readPremisesCsv(fixture('premises-sample.csv')));
    expect(records[0].record).toMatchObject({
      id: 'sample-1',
      name: 'Sample Pharmacy, Main St',
      type: 'pharmacy',
      latitude: -1.2864,
      longitude: 36.8172,
      services: ['dispensing', 'vaccination'],
    });
    expect(records[1].record).toMatchObject({ id: 'sample-2', latitude: undefined, services: [] });
    expect(errors).toEqual([
      { line: 4, error: expect.stringMatching(/^type must be one of/) },
      { line: 5, error: expect.stringMatching(/latitude/) },
    ]);
  });
});
