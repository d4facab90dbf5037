import { editDistances } from './edit-distance';
import { compareKeys, rankMatches, type FuzzyCandidate } from './fuzzy-rank';

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
    expect(editDistances('alzhiemer', 'alzheimer disease')).toMatchObject({ full: 9, prefix: 1 });
    expect(editDistances('diabetes', 'diabetes mellitus').prefix).toBe(0);
  });

  it.each([
    ['stolyses', 'osteolyses', 2, 0], // two dropped letters
    ['stolyses', 'autolyses', 2, 1], // a dropped letter and a wrong one
    ['synndrome', 'syndrome', 1, 0], // a doubled letter
    ['synxdrome', 'syndrome', 1, 1], // an extra letter that doubles nothing
    ['sydnrome', 'syndrome', 1, 0], // swapped neighbours
  ])('%s -> %s: of the fewest edits (%i), %i uncommon', (query, term, full, uncommon) => {
    expect(editDistances(query, term)).toMatchObject({ full, fullUncommon: uncommon });
  });

  it('counts the uncommon edits of the prefix alignment apart', () => {
    expect(editDistances('alzhxmer', 'alzheimer disease')).toMatchObject({ prefix: 2, prefixUncommon: 1 });
  });
});

describe('rankMatches', () => {
  const candidate = (pk: string, term: string, isName = true, similarity = 0.5): FuzzyCandidate => ({
    pk,
    nameKey: term,
    term,
    isName,
    similarity,
  });
  const order = (query: string, candidates: FuzzyCandidate[]) =>
    rankMatches(query, candidates)
      .sort((a, b) => compareKeys(a.key, b.key) || Number(a.pk) - Number(b.pk))
      .map((d) => d.pk);

  it('puts an exact match first, then an exact prefix, then the fewest typos', () => {
    const candidates = [
      candidate('1', 'gout, acute'),
      candidate('2', 'goat disease'),
      candidate('3', 'gout'),
      candidate('4', 'gut'),
    ];
    expect(order('gout', candidates)).toEqual(['3', '1', '4', '2']);
  });

  it('scores a disease by its best name or synonym, and counts its terms within the allowed typos once each', () => {
    const ranked = rankMatches('mellitus', [
      candidate('7', 'diabetes mellitus'),
      candidate('7', 'mellitus', false),
      candidate('7', 'mellitus', false), // offered by both candidate passes
      candidate('7', 'melitus', false),
    ]);
    // The best term is the one type-ahead shows as matched.
    expect(ranked).toEqual([
      { pk: '7', nameKey: 'diabetes mellitus', term: 'mellitus', isName: false, key: [0, 0, 0, -2, 500, 1], closeTerms: 2, nearestEdits: 0 },
    ]);
  });

  it('prefers common slips to uncommon ones, then the disease more of whose terms are near', () => {
    expect(order('stolyses', [candidate('1', 'autolyses'), candidate('2', 'osteolyses')])).toEqual(['2', '1']);
    expect(order('dystoia', [candidate('1', 'dystonia'), candidate('2', 'dystocia'), candidate('2', 'dystocias', false)])).toEqual(['2', '1']);
  });

  it('counts no term of a disease matched only in part', () => {
    expect(rankMatches('alzhiemer', [candidate('3', 'alzheimer disease')])[0].closeTerms).toBe(0);
  });
});
