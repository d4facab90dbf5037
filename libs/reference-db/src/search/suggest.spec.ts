import { suggestMatches, typoPrefixPatterns } from './suggest';
import { TermTable, type TypoPattern } from './term-table';

/** A pattern as LIKE would spell it. */
const like = ({ before, after }: TypoPattern) => (after === undefined ? `${before}%` : `${before}_${after}%`);

describe('type-ahead typo patterns', () => {
  it('undo one typo of each kind, never starting with a wildcard', () => {
    const patterns = typoPrefixPatterns('mnei').map(like);
    // a swap ("mnei" for "meni"), a dropped letter ("brin" for "brain"), an extra one, a wrong one
    expect(patterns).toEqual(expect.arrayContaining(['meni%', 'nmei%', 'm_nei%', 'mn_ei%', 'nei%', 'mni%', 'm_ei%', 'mne_%']));
    expect(patterns.filter((pattern) => /^_/.test(pattern))).toEqual([]);
    expect(patterns).not.toContain('mnei%');
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('take the query’s own % _ and \\ as the characters they are', () => {
    expect(typoPrefixPatterns('a%b')).toEqual(expect.arrayContaining([{ before: '%b' }, { before: 'a', after: 'b' }, { before: '%ab' }]));
  });
});

/** A vocabulary of concepts named by their first term, the others their synonyms. */
function table(concepts: string[][], version = 1n): TermTable {
  const names = concepts.map(([name], index) => ({ pk: String(index + 1), name }));
  const rows = concepts.flatMap((terms, index) => terms.map((term, k) => ({ pk: String(index + 1), term, isName: k === 0 })));
  return new TermTable(version, rows, names);
}

const suggested = (vocabulary: TermTable, query: string, limit = 5) => suggestMatches(vocabulary, query, limit).map((match) => match.term);

describe('type-ahead over terms in memory', () => {
  const drugs = table([
    ['metformin', 'glucophage'],
    ['metoprolol'],
    ['methotrexate'],
    ['meningitis vaccine'],
    ['dementia, alzheimer type', 'alzheimer dementia'],
    ['diabetes mellitus, type 2', 'type 2 diabetes'],
    ['diabetes insipidus'],
  ]);

  it('complete a prefix, the shorter term first, and show the synonym that matched', () => {
    // Typos (a dropped "t": "meningitis vaccine") only after the completions.
    expect(suggested(drugs, 'met').slice(0, 3)).toEqual(['metformin', 'metoprolol', 'methotrexate']);
    expect(suggestMatches(drugs, 'glucoph', 5)).toEqual([expect.objectContaining({ pk: '1', term: 'glucophage', isName: false })]);
  });

  it('undo a swap, a dropped, an extra and a wrong letter', () => {
    expect(suggested(drugs, 'metfromin')[0]).toBe('metformin');
    expect(suggested(drugs, 'mtformin')[0]).toBe('metformin');
    expect(suggested(drugs, 'metfformin')[0]).toBe('metformin');
    expect(suggested(drugs, 'metfirmin')[0]).toBe('metformin');
    expect(suggested(drugs, 'daibetes')[0]).toMatch(/^diabetes/);
    // The first letter wrong or dropped: no prefix pattern's, but the trigram pass found them.
    expect(suggested(drugs, 'xiabet')[0]).toMatch(/^diabetes/);
    expect(suggested(drugs, 'iabet')[0]).toMatch(/^diabetes/);
    expect(suggested(drugs, 'nsipid')).toEqual(['diabetes insipidus']);
  });

  it('find a word inside a longer term, as typed and with a typo', () => {
    expect(suggested(drugs, 'alzheimer')).toEqual(['alzheimer dementia']);
    expect(suggestMatches(drugs, 'insipid', 5).map((match) => match.pk)).toEqual(['7']);
    expect(suggestMatches(drugs, 'insipdus', 5).map((match) => match.pk)).toEqual(['7']);
    expect(suggested(drugs, 'vacine')).toEqual(['meningitis vaccine']);
  });

  it('leave part matches and typos to queries of 3 characters or more', () => {
    expect(suggested(drugs, 'ty')).toEqual(['type 2 diabetes']);
    expect(suggested(drugs, 'va')).toEqual([]);
    expect(suggested(drugs, 'qqxxzzqq')).toEqual([]);
  });

  it('undo a typo further on, and a second one after the first 8 characters', () => {
    expect(suggestMatches(drugs, 'diabetes mellitsu', 5)[0]).toMatchObject({ pk: '6' });
    expect(suggested(drugs, 'metfromin hydrochloride')[0]).toBe('metformin');
    expect(suggestMatches(drugs, 'daibetes mellitsu', 5)[0]).toMatchObject({ pk: '6' });
  });

  it('keep each pattern to its cap, however many terms share a start', () => {
    const many = table(Array.from({ length: 1000 }, (_, index) => [`ab${String(index).padStart(4, '0')}`, `x ab${String(index).padStart(4, '0')}`]));
    const spy = jest.spyOn(many, 'termsMatching');
    const words = jest.spyOn(many, 'wordsMatching');
    expect(suggestMatches(many, 'ab', 10)).toHaveLength(10);
    expect(spy.mock.results.map((result) => (result.value as number[]).length)).toEqual([200]);
    expect(words).not.toHaveBeenCalled();
    suggestMatches(many, 'azb', 10);
    expect(Math.max(...spy.mock.results.map((result) => (result.value as number[]).length))).toBeLessThanOrEqual(200);
    expect(Math.max(...words.mock.results.slice(1).map((result) => (result.value as number[]).length))).toBeLessThanOrEqual(30);
    expect(suggested(many, 'azb0999', 1)).toEqual(['ab0999']);
  });
});
