import { QueryTypes, type Sequelize } from 'sequelize';
import { isCodeSystem, REFERENCE_LIMITS, type catalogueV1, type CodeSystem } from '@libs/contracts';
import { RpcError } from '@libs/grpc';
import { atcLevel } from '@libs/reference-db';

/**
 * Code lookup (docs/REFERENCE.md, "Code lookup"): each system's codes as its
 * source writes them, and the indexed statement that finds their concepts
 * ($1 the normalised code). A code that cannot be of its system names nothing.
 */
interface Lookup {
  /** The code as stored, or undefined when the text cannot be a code of the system. */
  normalise(code: string): string | undefined;
  select: string;
}

const matching = (pattern: RegExp, write: (match: RegExpExecArray) => string) => (code: string) => {
  const match = pattern.exec(code);
  return match ? write(match) : undefined;
};

const LIMIT = `LIMIT ${REFERENCE_LIMITS.codeMatches}`;
/** A disease by its id or one of its alternative ids (CTD's AltDiseaseIDs; GIN index of 0007-code-lookup). */
const DISEASES_BY_ID = `SELECT 'disease' AS type, d.id::text AS id, d.name FROM diseases d
  WHERE d.disease_id = $1 OR d.alternative_ids @> ARRAY[$1]::text[] ORDER BY d.id ${LIMIT}`;

const LOOKUPS: Record<CodeSystem, Lookup> = {
  mesh: { normalise: matching(/^(?:mesh:)?([cd]\d{6,9})$/i, (m) => `MESH:${m[1].toUpperCase()}`), select: DISEASES_BY_ID },
  omim: { normalise: matching(/^(?:omim:)?(\d{1,7})$/i, (m) => `OMIM:${m[1]}`), select: DISEASES_BY_ID },
  // Conditions carry the DOID itself; CTD names it among a disease's alternative ids as DO:DOID:<n>.
  doid: {
    normalise: matching(/^(?:doid:)?(\d{1,9})$/i, (m) => `DOID:${m[1]}`),
    select: `(SELECT 'condition' AS type, c.id::text AS id, c.name FROM conditions c WHERE c.doid = $1 ORDER BY c.id ${LIMIT})
      UNION ALL
      (SELECT 'disease', d.id::text, d.name FROM diseases d WHERE d.alternative_ids @> ARRAY['DO:' || $1]::text[] ORDER BY d.id ${LIMIT})`,
  },
  drugbank: {
    normalise: matching(/^(db\d{5})$/i, (m) => m[1].toUpperCase()),
    select: `SELECT 'drug' AS type, d.id::text AS id, d.name FROM drugs d WHERE d.drugbank_id = $1 ORDER BY d.id ${LIMIT}`,
  },
  // An application's products, each a dosage whose source id is fda:<ApplNo>-<ProductNo>; a drug per active ingredient.
  'fda-application': {
    normalise: matching(/^(?:n?da|anda|bla)?\s*(\d{1,6})$/i, (m) => m[1].padStart(6, '0')),
    select: `SELECT 'drug' AS type, d.id::text AS id, d.name FROM drugs d
      WHERE d.id IN (SELECT s.drug_pk FROM dosages s WHERE s.source_id LIKE 'fda:' || $1 || '-%') ORDER BY d.id ${LIMIT}`,
  },
  'fda-product': {
    normalise: matching(/^(\d{1,6})-(\d{1,3})$/, (m) => `${m[1].padStart(6, '0')}-${m[2].padStart(3, '0')}`),
    select: `SELECT 'drug' AS type, d.id::text AS id, d.name FROM drugs d
      WHERE d.id IN (SELECT s.drug_pk FROM dosages s WHERE s.source_id = 'fda:' || $1) ${LIMIT}`,
  },
  atc: {
    normalise: (code) => (atcLevel(code.toUpperCase()) ? code.toUpperCase() : undefined),
    select: `SELECT 'category' AS type, c.code AS id, c.name FROM drug_categories c WHERE c.code = $1`,
  },
  loinc: {
    normalise: matching(/^(\d{1,7}-\d)$/, (m) => m[1]),
    select: `SELECT 'lab' AS type, t.id::text AS id, t.name FROM lab_tests t WHERE t.loinc = $1 ORDER BY t.id ${LIMIT}`,
  },
};

export function codeLookupHandlers(sequelize: Sequelize) {
  return {
    async lookupCode(request: catalogueV1.LookupCodeRequest): Promise<catalogueV1.LookupCodeResponse> {
      if (!isCodeSystem(request.system)) throw RpcError.invalidArgument('system', 'is not a code system the catalogue knows');
      if (request.code.trim() === '') throw RpcError.invalidArgument('code', 'is required: the code to look up');
      const lookup = LOOKUPS[request.system];
      const code = lookup.normalise(request.code.trim());
      if (code === undefined) return { code: request.code, concepts: [] };
      const concepts = await sequelize.query<catalogueV1.CodeConcept>(lookup.select, { bind: [code], type: QueryTypes.SELECT });
      return { code, concepts };
    },
  };
}
