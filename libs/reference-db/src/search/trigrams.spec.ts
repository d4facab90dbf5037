import { trigramSimilarity, trigramsOf } from './trigrams';

describe('trigrams as pg_trgm takes them', () => {
  it('pad each word with two spaces before and one after, and count each trigram once', () => {
    // "  d", " du", "dun", "unc", "nca", "can", "an ", " di", "dis", "ise", "sea", "eas", "ase", "se "
    expect(trigramsOf('duncan disease')).toHaveLength(14);
    expect(trigramsOf('x')).toHaveLength(2);
    expect(trigramsOf(', - ')).toHaveLength(0);
  });

  it('give pg_trgm’s similarity, as its float4', () => {
    // "  m", " me", "met", "etf", "min", "in " shared of 14: SELECT similarity('metformin', 'metfromin') gives 0.42857143
    expect(trigramSimilarity(trigramsOf('metformin'), trigramsOf('metfromin'))).toBe(Math.fround(6 / 14));
    expect(trigramSimilarity(trigramsOf('word'), trigramsOf('word'))).toBe(1);
    expect(trigramSimilarity(trigramsOf('abc'), trigramsOf('xyz'))).toBe(0);
    expect(trigramSimilarity([], [])).toBe(0);
    expect(trigramsOf('a b')).toEqual(trigramsOf('b a'));
  });
});
