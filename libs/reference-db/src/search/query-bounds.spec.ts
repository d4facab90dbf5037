import fc from 'fast-check';
import { boundedQuery, MAX_QUERY_WORDS, MAX_WORD_LENGTH } from './query-bounds';

const words = (text: string) => text.match(/[\p{L}\p{N}]+/gu) ?? [];

describe('boundedQuery', () => {
  it('leaves real names as they are: the CTD synonym of most words, the longest word', () => {
    // 23 words: the most of any CTD name or synonym of at most 200 characters.
    const mostWords =
      'scid, autosomal recessive, t cell-negative, b cell-negative, nk cell-positive, with sensitivity to ionizing radiation severe combined immunodeficiency, athabaskan-type, included';
    for (const name of ['diabtes melitus', 'pseudopseudohypoparathyroidisms', 'ear/eye anomalies', mostWords]) {
      expect(boundedQuery(name)).toBe(name);
    }
  });

  it(`keeps the first ${MAX_QUERY_WORDS} words, each cut at ${MAX_WORD_LENGTH} letters`, () => {
    expect(boundedQuery('x'.repeat(200))).toBe('x'.repeat(MAX_WORD_LENGTH));
    const many = Array.from({ length: 40 }, (_, i) => `w${i}`);
    expect(boundedQuery(many.join(', '))).toBe(many.slice(0, MAX_QUERY_WORDS).join(', '));
    expect(boundedQuery(`${'a'.repeat(40)}-${'b'.repeat(3)} (${'c'.repeat(50)})`)).toBe(
      `${'a'.repeat(MAX_WORD_LENGTH)}-bbb (${'c'.repeat(MAX_WORD_LENGTH)})`,
    );
  });

  it('never cuts a letter outside the BMP in half', () => {
    const bounded = boundedQuery('𝒜'.repeat(100));
    expect([...bounded]).toEqual(Array(MAX_WORD_LENGTH).fill('𝒜'));
    expect(bounded).not.toMatch(/[\uD800-\uDFFF]/u); // no lone surrogate
  });

  it('bounds any text, and changes nothing that is within the bounds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
        const bounded = boundedQuery(text);
        const kept = words(bounded);
        expect(kept.length).toBeLessThanOrEqual(MAX_QUERY_WORDS);
        for (const word of kept) expect([...word].length).toBeLessThanOrEqual(MAX_WORD_LENGTH);
        expect(boundedQuery(bounded)).toBe(bounded);
        const within = words(text).length <= MAX_QUERY_WORDS && words(text).every((w) => [...w].length <= MAX_WORD_LENGTH);
        if (within) expect(bounded).toBe(text);
      }),
      { seed: 1, numRuns: 2000 },
    );
  });
});
