import fc from 'fast-check';
import { QueryTypes } from 'sequelize';
import { createScratchDatabase, type ScratchDatabase } from '@libs/testing';
import { migrations } from '../migrations';
import { allowedTypos } from './edit-distance';
import { candidateFilter } from './fuzzy-candidates';
import { distinctTrigramCount } from './trigrams';

/** A typo as users make them: a swap of neighbouring letters, a dropped, doubled or mistyped letter. */
type Typo = { kind: 'swap' | 'drop' | 'double' | 'mistype'; at: number; letter: string };

function applyTypo(text: string, { kind, at: fraction, letter }: Typo): string {
  const at = Math.floor(fraction * text.length);
  if (kind === 'swap' && at + 1 < text.length) return text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
  if (kind === 'double') return text.slice(0, at + 1) + text[at] + text.slice(at + 1);
  if (kind === 'mistype') return text.slice(0, at) + letter + text.slice(at + 1);
  return text.slice(0, at) + text.slice(at + 1);
}

const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz');
const word = fc.array(fc.oneof({ arbitrary: letters, weight: 9 }, { arbitrary: fc.constantFrom(...'0123456789'), weight: 1 }), {
  minLength: 1,
  maxLength: 12,
});
/** Words of letters and digits; the first and last of two letters at least (a typo that drops a whole word at an end is an example below). */
const term = fc
  .array(word, { minLength: 1, maxLength: 4 })
  .map((words) => words.map((w) => w.join('')))
  .filter((words) => words[0].length > 1 && words[words.length - 1].length > 1)
  .map((words) => words.join(' '));
const typo = fc.record({
  kind: fc.constantFrom<Typo['kind']>('swap', 'drop', 'double', 'mistype'),
  at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
  letter: letters,
});

describe('the candidate thresholds', () => {
  let db: ScratchDatabase;
  beforeAll(async () => {
    db = await createScratchDatabase('refbound', migrations);
  });
  afterAll(() => db?.drop());

  it('count trigrams as pg_trgm does: once each, over words of letters and digits', async () => {
    const texts = ['duncan disease', 'ksull neoplsam', 'x-linked (type 2), 46,xy', 'aaa aaa', 'a', ''];
    for (const text of texts) {
      const [{ count }] = await db.sequelize.query<{ count: number }>('SELECT coalesce(array_length(show_trgm(?), 1), 0) AS count', {
        type: QueryTypes.SELECT,
        replacements: [text],
      });
      expect({ text, count: distinctTrigramCount(text) }).toEqual({ text, count });
    }
  });

  it('need no whole-term similarity where a part match is asked for: a term is at least as word-similar', async () => {
    await fc.assert(
      // Terms that share much of the query too: the query with a letter changed, inside other words.
      fc.asyncProperty(word.map((w) => w.join('')), term, fc.nat(), typo, async (query, other, at, change) => {
        const text = [other.slice(0, at % (other.length + 1)), applyTypo(query, change), other.slice(at % (other.length + 1))].join(' ').trim();
        const [{ similarity, wordSimilarity }] = await db.sequelize.query<{ similarity: number; wordSimilarity: number }>(
          'SELECT similarity(?, ?) AS similarity, word_similarity(?, ?) AS "wordSimilarity"',
          { type: QueryTypes.SELECT, replacements: [text, query, query, text] },
        );
        expect(wordSimilarity).toBeGreaterThanOrEqual(similarity);
      }),
      { seed: 1, numRuns: 500 },
    );
    // And so the first pass of a one-word query asks only for the part match.
    const filter = candidateFilter('alzhiemer', 0);
    expect(filter.wordSimilarity).toBeLessThanOrEqual(filter.similarity);
  });

  it('let the wide pass find a term however its typos fall, the float4 similarity included', async () => {
    const examples: [string, string][] = [
      ['skull neoplasm', 'ksull neoplsam'], // 7/23: once left out as a float4 below the same bound as a double
      ['duncan disease', 'dunacn disaese'], // "  d" twice: 14 different trigrams, not 15
      ['x chromosome, trisomy xp3', 'chromosome, risomy xp3'], // the dropped "x" takes its space along, trimmed
    ];
    const check = async (original: string, query: string) => {
      const filter = candidateFilter(query, 1);
      const [{ passes }] = await db.sequelize.query<{ passes: boolean }>('SELECT similarity(?, ?) >= ? AS passes', {
        type: QueryTypes.SELECT,
        replacements: [original, query, filter.similarity],
      });
      const length = filter.length && original.length >= filter.length.min && original.length <= filter.length.max;
      expect({ original, query, passes, length }).toEqual({ original, query, passes: true, length: true });
    };
    for (const [original, query] of examples) await check(original, query);
    await fc.assert(
      fc.asyncProperty(term, fc.array(typo, { minLength: 2, maxLength: 2 }), async (original, typos) => {
        const query = typos.slice(0, original.length < 9 ? 1 : 2).reduce(applyTypo, original).trim();
        // A short query shares too few trigrams with its term for any bound ("ac" and "ca" share none): the wide pass
        // searches from a similarity of 0.1.
        const [t, k] = [distinctTrigramCount(query), allowedTypos(query)];
        fc.pre(query !== original && (t - 4 * k) / (t + 4 * k) >= 0.1);
        await check(original, query);
      }),
      { seed: 1, numRuns: 500 },
    );
  });
});
