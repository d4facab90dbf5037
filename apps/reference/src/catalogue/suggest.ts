import { QueryTypes } from 'sequelize';
import { pageSize } from '@libs/cursor';
import { isSuggestType, REFERENCE_LIMITS, SUGGEST_TYPES, type catalogueV1, type SuggestType } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import {
  compareKeys,
  CONDITION_TERMS,
  DISEASE_TERMS,
  diseasesByPk,
  DRUG_TERMS,
  foldText,
  LAB_TEST_TERMS,
  MIN_SUGGEST_LENGTH,
  suggestMatches,
  type RankedMatch,
  type SearchDb,
  type TermIndex,
} from '@libs/reference-db';
import { LINE_TEXT } from '@libs/safe-text';
import { answeringTimeouts } from '../search-errors';

interface Vocabulary {
  index: TermIndex;
  /** The query as that vocabulary's terms are written: disease search lower-cases, the catalogue's terms fold accents too. */
  normalise(text: string): string;
  names(db: SearchDb, pks: string[]): Promise<{ id: string; name: string }[]>;
}

/** The names of these rows of a catalogue table, by primary key. */
const namesIn =
  (table: string) =>
  (db: SearchDb, pks: string[]): Promise<{ id: string; name: string }[]> =>
    db.sequelize.query<{ id: string; name: string }>(`SELECT id::text AS id, name FROM ${table} WHERE id = ANY($1::bigint[])`, {
      bind: [pks],
      type: QueryTypes.SELECT,
    });

const VOCABULARIES: Record<SuggestType, Vocabulary> = {
  diseases: { index: DISEASE_TERMS, normalise: (text) => text.trim().toLowerCase(), names: (db, pks) => diseasesByPk(db, pks, 'names') },
  drugs: { index: DRUG_TERMS, normalise: foldText, names: namesIn('drugs') },
  labs: { index: LAB_TEST_TERMS, normalise: foldText, names: namesIn('lab_tests') },
  conditions: { index: CONDITION_TERMS, normalise: foldText, names: namesIn('conditions') },
};

const ALL_TYPES = Object.keys(SUGGEST_TYPES) as SuggestType[];

function typesOf(requested: readonly string[]): SuggestType[] {
  const given = requested.map((type) => type.trim()).filter((type) => type !== '');
  const unknown = given.find((type) => !isSuggestType(type));
  if (unknown !== undefined) throw RpcError.invalidArgument('types', `must name only ${ALL_TYPES.join(', ')}`);
  return given.length === 0 ? ALL_TYPES : [...new Set(given as SuggestType[])];
}

function checkedText(text: string): string {
  if (text.length > REFERENCE_LIMITS.termMaxLength) throw RpcError.invalidArgument('q', `must be at most ${REFERENCE_LIMITS.termMaxLength} characters`);
  if (!LINE_TEXT.accepts(text)) throw RpcError.invalidArgument('q', LINE_TEXT.message);
  if ([...foldText(text)].length < MIN_SUGGEST_LENGTH) throw RpcError.invalidArgument('q', `must be at least ${MIN_SUGGEST_LENGTH} characters`);
  return text;
}

/**
 * Type-ahead (docs/SEARCH.md, "Type-ahead"): each vocabulary's best matches
 * (suggestMatches, the search engine's own candidates and ranking), merged by
 * the same key across vocabularies, so the nearest term wins whatever its type.
 */
export function suggestHandlers(search: SearchDb) {
  return {
    async suggest(request: catalogueV1.SuggestRequest): Promise<catalogueV1.SuggestResponse> {
      const text = checkedText(request.text);
      const limit = pageSize(request.limit, REFERENCE_LIMITS.suggestLimit, 'limit');
      const types = typesOf(request.types);
      const perType = await answeringTimeouts(() =>
        Promise.all(
          types.map(async (type) => {
            const vocabulary = VOCABULARIES[type];
            const matches = await suggestMatches(search, vocabulary.index, vocabulary.normalise(text), limit);
            return matches.map((match) => ({ type, match }));
          }),
        ),
      );
      const best = perType
        .flat()
        .sort((a, b) => compareKeys(a.match.key, b.match.key) || ALL_TYPES.indexOf(a.type) - ALL_TYPES.indexOf(b.type) || Number(a.match.pk) - Number(b.match.pk))
        .slice(0, limit);
      const names = new Map<string, string>();
      for (const type of types) {
        const pks = best.filter((item) => item.type === type).map((item) => item.match.pk);
        if (pks.length > 0) for (const row of await VOCABULARIES[type].names(search, pks)) names.set(`${type}:${row.id}`, row.name);
      }
      return {
        suggestions: best.map(({ type, match }: { type: SuggestType; match: RankedMatch }) => ({
          type: SUGGEST_TYPES[type],
          id: match.pk,
          display: names.get(`${type}:${match.pk}`) ?? '',
          matched: match.isName ? '' : match.term,
        })),
      };
    },
  };
}
