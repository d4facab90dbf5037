import { prefixPattern, typoPrefixPatterns } from './suggest';

describe('type-ahead typo patterns', () => {
  it('undo one typo of each kind, never starting with a wildcard', () => {
    const patterns = typoPrefixPatterns('mnei');
    // a swap ("mnei" for "meni"), a dropped letter ("brin" for "brain"), an extra one, a wrong one
    expect(patterns).toEqual(expect.arrayContaining(['meni%', 'nmei%', 'm_nei%', 'mn_ei%', 'nei%', 'mni%', 'm_ei%', 'mne_%']));
    expect(patterns.filter((pattern) => /^[_%]/.test(pattern))).toEqual([]);
    expect(patterns).not.toContain(prefixPattern('mnei'));
    expect(new Set(patterns).size).toBe(patterns.length);
  });

  it('take the query’s own % _ and \\ literally', () => {
    expect(typoPrefixPatterns('a%b')).toEqual(expect.arrayContaining(['\\%b%', 'a_b%', '\\%ab%']));
  });
});
