import { logText } from './request-log';

describe('logText', () => {
  it('keeps short text as it is', () => {
    expect(logText('/api/v1/diseases?n=asthma', 64)).toBe('/api/v1/diseases?n=asthma');
  });

  it('cuts long text to the limit, marking the cut', () => {
    const cut = logText('x'.repeat(10_000), 100);
    expect(cut).toHaveLength(100);
    expect(cut.endsWith('x…')).toBe(true);
  });

  it('never cuts inside a surrogate pair, at any position', () => {
    const emoji = 'a' + '\u{1F600}'.repeat(50);
    for (let max = 2; max < emoji.length; max += 1) {
      const cut = logText(emoji, max);
      expect(cut.length).toBeLessThanOrEqual(max);
      // UTF-8 cannot carry a lone surrogate: a round trip would change the text.
      expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
      expect(cut.endsWith('…')).toBe(true);
    }
  });

  it('replaces lone surrogates', () => {
    expect(logText('a\uD800b\uDC00c', 64)).toBe('a\uFFFDb\uFFFDc');
  });
});
