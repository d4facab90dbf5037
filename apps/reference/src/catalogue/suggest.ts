import { pageSize } from '@libs/cursor';
import { isSuggestType, REFERENCE_LIMITS, SUGGEST_TYPES, type catalogueV1, type SuggestType } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import { compareKeys, completedConcepts, foldText, MIN_SUGGEST_LENGTH, suggestMatches, type TermTables, type Vocabulary } from '@libs/reference-db';
import { LINE_TEXT } from '@libs/safe-text';

/** The query as each vocabulary's terms are written: disease search lower-cases, the catalogue's terms fold accents too. */
const NORMALISE: Record<SuggestType, (text: string) => string> = {
  diseases: (text) => text.trim().toLowerCase(),
  drugs: foldText,
  labs: foldText,
  conditions: foldText,
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
 * (suggestMatches over its terms in memory, TermTables, with the search
 * engine's ranking), merged by the same key across vocabularies, so the
 * nearest term wins whatever its type.
 */
export function suggestHandlers(tables: TermTables<SuggestType & Vocabulary>) {
  return {
    async suggest(request: catalogueV1.SuggestRequest): Promise<catalogueV1.SuggestResponse> {
      const text = checkedText(request.text);
      const limit = pageSize(request.limit, REFERENCE_LIMITS.suggestLimit, 'limit');
      const types = typesOf(request.types);
      const current = await tables.current(types);
      const queries = types.map((type) => NORMALISE[type](text));
      const completed = types.map((_, i) => completedConcepts(current[i], queries[i]));
      const allCompleted = completed.reduce((sum, count) => sum + count, 0);
      const best = types
        .flatMap((type, i) =>
          suggestMatches(current[i], queries[i], limit, allCompleted - completed[i]).map((match) => ({ type, table: current[i], match })),
        )
        .sort((a, b) => compareKeys(a.match.key, b.match.key) || ALL_TYPES.indexOf(a.type) - ALL_TYPES.indexOf(b.type) || Number(a.match.pk) - Number(b.match.pk))
        .slice(0, limit);
      return {
        suggestions: best.map(({ type, table, match }) => ({
          type: SUGGEST_TYPES[type],
          id: match.pk,
          display: table.nameOf(match.pk) ?? '',
          matched: match.isName ? '' : match.term,
        })),
      };
    },
  };
}
