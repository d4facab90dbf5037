import fc from 'fast-check';
import { boundedText, wellFormed } from './safe-text';

/** Strings of any UTF-16 units, lone surrogates included, and runs of emoji that a cut would split. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) }),
  fc.tuple(fc.nat(5), fc.nat(60)).map(([a, e]) => `${'a'.repeat(a)}${'😀'.repeat(e)}`),
);

describe('wellFormed', () => {
  it('replaces lone surrogates and keeps pairs', () => {
    expect(wellFormed('a\ud800b\udc00c😀')).toBe('a\ufffdb\ufffdc😀');
  });

  it('gives a string encodeURI accepts, whatever the input', () => {
    fc.assert(fc.property(anyText, (text) => void encodeURI(wellFormed(text))));
  });
});

describe('boundedText', () => {
  it('keeps a short text as it is and marks a cut', () => {
    expect(boundedText('asthma', 10)).toBe('asthma');
    expect(boundedText('asthma attack', 7)).toBe('asthma…');
    expect(boundedText('asthma', 0)).toBe('');
  });

  it('never splits the emoji of the reported request, whatever the cut', () => {
    const id = `a${'😀'.repeat(30)}`;
    for (let max = 1; max <= id.length; max += 1) {
      const cut = boundedText(id, max);
      expect(cut.isWellFormed()).toBe(true);
      expect(cut.length).toBeLessThanOrEqual(max);
    }
    expect(boundedText(id, 40)).toBe(`a${'😀'.repeat(19)}…`);
  });

  it('is well-formed, within the bound, and the well-formed text or a marked prefix of it, for any input', () => {
    fc.assert(
      fc.property(anyText, fc.nat(80), (text, max) => {
        const cut = boundedText(text, max);
        const whole = wellFormed(text);
        expect(cut.isWellFormed()).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        if (whole.length <= max) expect(cut).toBe(whole);
        else if (max > 0) expect(cut.endsWith('…') && whole.startsWith(cut.slice(0, -1))).toBe(true);
      }),
    );
  });
});
