import { editDistances } from './edit-distance';
import { rankDiseases, type FuzzyCandidate } from './fuzzy-rank';

describe('editDistances', () => {
  it.each([
    ['asthma', 'asthma', 0],
    ['athma', 'asthma', 1], // dropped
    ['assthma', 'asthma', 1], // doubled
    ['astmha', 'asthma', 1], // swapped neighbours
    ['asthna', 'asthma', 1], // mistyped
    ['diabtes melitus', 'diabetes mellitus', 2],
    ['', 'gout', 4],
  ])('%s -> %s is %i edits', (query, term, edits) => {
    expect(editDistances(query, term).full).toBe(edits);
  });

  it('measures the distance to the closest start of the term', () => {
    expect(editDistances('alzhiemer', 'alzheimer disease')).toEqual({ full: 9, prefix: 1 });
    expect(editDistances('diabetes', 'diabetes mellitus').prefix).toBe(0);
  });
});

describe('rankDiseases', () => {
  const candidate = (diseasePk: string, term: string, isName = true, similarity = 0.5): FuzzyCandidate => ({
    diseasePk,
    nameKey: term,
    term,
    isName,
    similarity,
  });
  const order = (query: string, candidates: FuzzyCandidate[]) =>
    rankDiseases(query, candidates)
      .sort((a, b) => a.key.join(',').localeCompare(b.key.join(',')) || Number(a.diseasePk) - Number(b.diseasePk))
      .map((d) => d.diseasePk);

  it('puts an exact match first, then an exact prefix, then the fewest typos', () => {
    const candidates = [
      candidate('1', 'gout, acute'),
      candidate('2', 'goat disease'),
      candidate('3', 'gout'),
      candidate('4', 'gut'),
    ];
    expect(order('gout', candidates)).toEqual(['3', '1', '4', '2']);
  });

  it('scores a disease by its best name or synonym', () => {
    const ranked = rankDiseases('mellitus', [candidate('7', 'diabetes mellitus'), candidate('7', 'mellitus', false)]);
    expect(ranked).toEqual([{ diseasePk: '7', nameKey: 'mellitus', key: [0, 0, 500, 1] }]);
  });
});
