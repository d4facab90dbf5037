import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { QUERY_TEXT_MAX_LENGTH, REFERENCE_LIMITS } from './limits';

/**
 * docs/REFERENCE.md states the reference API's limits for readers; limits.ts is where they are. Each phrase
 * below is how the page writes one limit, made from limits.ts: a limit changed there fails this test until the
 * page says the new number.
 */
const {
  dosageBatch,
  diseaseBatch,
  termListMaxLength,
  maxTerms,
  termMaxLength,
  labTestPage,
  drugPage,
  categoryPage,
  conditionPage,
  premisePage,
} = REFERENCE_LIMITS;

const fixedPage = (list: string, order: string, size: number) => `| ${list} | ${order} | ${size}, fixed |`;

const PHRASES = [
  `At most ${QUERY_TEXT_MAX_LENGTH} characters (comma lists: ${termListMaxLength.toLocaleString('en-US')} characters, at most ${maxTerms} terms of at most ${termMaxLength} characters each)`,
  fixedPage('labs', "name (case-insensitive, in the database's collation), then id", labTestPage),
  `| dosages | drug name, drug id, dosage id | \`b\`: ${dosageBatch.min}–${dosageBatch.max}, default ${dosageBatch.default} dosage entries |`,
  fixedPage('drugs', 'name, then id', drugPage),
  fixedPage('categories', 'ATC code', categoryPage),
  fixedPage('conditions', 'name, then id', conditionPage),
  fixedPage('premises', 'name, then id', premisePage),
  `pages of ${diseaseBatch.max} detailed diseases`,
  `Dosage entries per page, ${dosageBatch.min}–${dosageBatch.max}, default ${dosageBatch.default};`,
  `The page size is fixed at ${drugPage}`,
];

describe('docs/REFERENCE.md', () => {
  const page = readFileSync(join(__dirname, '../../../../docs/REFERENCE.md'), 'utf8').replace(/\s*\n\s*/g, ' ');

  it.each(PHRASES)('states the limit of limits.ts: %s', (phrase) => {
    expect(page).toContain(phrase);
  });
});
