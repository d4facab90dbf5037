import { securitySchemes, sharedSchemas } from './components';
import { healthPaths } from './paths/health';
import { docsPaths } from './paths/docs';
import { diseasePaths, diseaseSchemas } from './paths/diseases';
import { cataloguePaths } from './paths/catalogue';
import { authPaths, authSchemas } from './paths/auth';
import { catalogueSchemas } from './paths/catalogue-schemas';
import { transactionPaths } from './paths/transactions';
import { financeRecordPaths } from './paths/finance-records';
import { financeBodies, financeSchemas } from './paths/finance-schemas';
import { auditPaths, auditSchemas } from './paths/audit';

const DESCRIPTION = `Clinical reference data and student finance, through one gateway.

- **Keys**: every \`/api/v1/*\` and \`/dosages*\` operation needs \`Authorization: Bearer <API key>\` unless it says it is public.
- **Errors** are RFC 9457 problem details (\`application/problem+json\`) with the request id; a 400 lists each bad field or parameter in \`errors\`.
- **Pagination**: lists return \`nextCursor\` while more results exist; send it back unchanged as \`cursor\`. It is absent on the last page. Cursors are signed and bound to the query that made them.
- **Request ids**: send \`X-Request-Id\` (letters, digits, \`._:-\`, up to 128) or get one generated; it is echoed on every response and stored with audit entries.`;

/** The OpenAPI 3.1 document of every gateway operation; served at /openapi.json. */
/** Path → method → operation object. */
export type Paths = Record<string, Record<string, unknown>>;

const paths: Paths = {
  ...authPaths,
  ...diseasePaths,
  ...cataloguePaths,
  ...transactionPaths,
  ...financeRecordPaths,
  ...auditPaths,
  ...healthPaths,
  ...docsPaths,
};

export function buildOpenApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: { title: 'Clinical reference and student finance API', version, description: DESCRIPTION },
    tags: [
      { name: 'Identity', description: 'Accounts, sign-in and API keys. The dashboard at /dashboard uses these.' },
      { name: 'Reference', description: 'Read-only clinical reference data.' },
      { name: 'Finance', description: 'Student transactions, proofs of payment and their records.' },
      { name: 'Finance records', description: 'Accounts, categories, students, registration numbers and statements.' },
      { name: 'Audit', description: 'The hash-chained log of every finance change.' },
      { name: 'Operations', description: 'Health and documentation.' },
    ],
    paths,
    components: { schemas: { ...sharedSchemas, ...authSchemas, ...diseaseSchemas, ...catalogueSchemas, ...financeSchemas, ...financeBodies, ...auditSchemas }, securitySchemes },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
