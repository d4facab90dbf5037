import { diseaseRecord } from '@libs/testing';
import { makeQuerySets } from './query-sets';
import { misspell, seededRandom, typoCount } from './typos';

const disease = (diseaseId: string, diseaseName: string, synonyms: string[]) => diseaseRecord({ diseaseId, diseaseName, synonyms });

describe('misspell', () => {
  it('makes one typo under 9 characters and two from 9 on, changing the text', () => {
    const random = seededRandom(7);
    for (const text of ['Gout', 'Asthma', 'Diabetes Mellitus', 'Alzheimer Disease']) {
      const typo = misspell(text, random);
      expect(typo.toLowerCase()).not.toBe(text.toLowerCase());
      // each typo moves the length by at most one
      expect(Math.abs(typo.length - text.length)).toBeLessThanOrEqual(typoCount(text));
    }
    expect(typoCount('Headache')).toBe(1);
    expect(typoCount('Migraines')).toBe(2);
  });

  it('repeats exactly for the same seed', () => {
    const run = () => Array.from({ length: 5 }, ((random) => () => misspell('Hypertension', random))(seededRandom(3)));
    expect(run()).toEqual(run());
  });
});

describe('makeQuerySets', () => {
  const diseases = [
    disease('MESH:1', 'Sample Fever', ['Pretend pyrexia', 'SF1', 'Shared name']),
    disease('MESH:2', 'Sample Rash', ['Shared name', 'Made-up dermatitis']),
  ];

  it('draws names and synonyms separately, leaving out codes and text that names two diseases', () => {
    const sets = makeQuerySets(diseases, 10, 1);
    expect(sets.names.map((q) => q.original).sort()).toEqual(['Sample Fever', 'Sample Rash']);
    expect(sets.synonyms.map((q) => [q.original, q.diseaseId]).sort()).toEqual([
      ['Made-up dermatitis', 'MESH:2'],
      ['Pretend pyrexia', 'MESH:1'],
    ]);
    for (const query of [...sets.names, ...sets.synonyms]) expect(query.text).not.toBe(query.original);
  });
});
