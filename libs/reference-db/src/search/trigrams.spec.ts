import { TrigramSimilarity, trigramsOf } from './trigrams';

const similarity = (a: string, b: string) => new TrigramSimilarity(a).of(b, trigramsOf(b).length);

describe('trigrams as pg_trgm takes them', () => {
  it('pad each word with two spaces before and one after, and count each trigram once', () => {
    // "  d", " du", "dun", "unc", "nca", "can", "an ", " di", "dis", "ise", "sea", "eas", "ase", "se "
    expect(trigramsOf('duncan disease')).toHaveLength(14);
    expect(trigramsOf('x')).toHaveLength(2);
    expect(trigramsOf(', - ')).toHaveLength(0);
  });

  it('give pg_trgm’s similarity, as its float4', () => {
    // "  m", " me", "met", "etf", "min", "in " shared of 14: SELECT similarity('metformin', 'metfromin') gives 0.42857143
    expect(similarity('metformin', 'metfromin')).toBe(Math.fround(6 / 14));
    expect(similarity('word', 'word')).toBe(1);
    expect(similarity('abc', 'xyz')).toBe(0);
    expect(similarity('', '')).toBe(0);
    // Each of the query's trigrams counts once, however often the text repeats it.
    expect(similarity('ab', 'ab ab')).toBe(1);
    expect(trigramsOf('a b')).toEqual(trigramsOf('b a'));
  });
});
