import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/**
 * Checks real gateway responses against the gateway's own /openapi.json, so
 * the document cannot drift from the code: every response an e2e test sees
 * must be documented for its operation, status and content type, and its body
 * must match the documented schema.
 */
interface Operation {
  method: string;
  pattern: RegExp;
  templated: number;
  path: string;
  responses: Record<string, { content?: Record<string, { schema?: object }> }>;
}

interface WebhookRequest {
  parameters: { name: string; in: string; required?: boolean; schema: object }[];
  requestBody: { content: Record<string, { schema: object }> };
}

interface Contract {
  operations: Operation[];
  /** What each event type sends (the document's `webhooks`), by event type. */
  webhooks: Record<string, { post: WebhookRequest }>;
  validator: (schema: object) => ValidateFunction;
}

const contracts = new Map<string, Promise<Contract>>();

async function loadContract(baseUrl: string): Promise<Contract> {
  const response = await fetch(`${baseUrl}/openapi.json`);
  if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
  const document = (await response.json()) as { paths: Record<string, Record<string, Operation['responses']>>; webhooks: Contract['webhooks'] };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // Registered whole, so `#/components/...` inside it resolves against the document.
  ajv.addSchema({ ...document, $id: 'openapi' });
  const compiled = new Map<object, ValidateFunction>();
  const validator = (schema: object) => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
      compiled.set(schema, validate);
    }
    return validate;
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      pattern: new RegExp(`^${path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
      templated: (path.match(/\{/g) ?? []).length,
      responses: (op as unknown as { responses: Operation['responses'] }).responses,
    })),
  );
  // A literal segment wins over a template (`/payments` before `/{id}`), as in the router.
  operations.sort((a, b) => a.templated - b.templated);
  return { operations, webhooks: document.webhooks, validator };
}

function contractOf(baseUrl: string): Promise<Contract> {
  let contract = contracts.get(baseUrl);
  if (!contract) {
    contract = loadContract(baseUrl);
    contracts.set(baseUrl, contract);
    contract.catch(() => contracts.delete(baseUrl));
  }
  return contract;
}

export async function checkAgainstContract(
  baseUrl: string,
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
): Promise<void> {
  const { operations, validator } = await contractOf(baseUrl);
  // Express routes are not strict: `/api/v1/drugs/` is `/api/v1/drugs` (and fetch turns `/drugs/.` into `/drugs/`).
  const path = new URL(url, baseUrl).pathname.replace(/(.)\/$/, '$1');
  const where = `${method} ${path} → ${status}`;
  const operation = operations.find((op) => op.method === method && op.pattern.test(path));
  const mediaType = contentType?.split(';')[0].trim() ?? '';
  if (!operation) {
    // Undocumented paths may only be refused, as problem details.
    if ((status === 404 || status === 405) && mediaType === 'application/problem+json') return;
    throw new Error(`${where}: no operation in /openapi.json matches this request`);
  }
  const response = operation.responses[String(status)] ?? operation.responses.default;
  if (!response) throw new Error(`${where}: status ${status} is not documented for ${operation.path}`);
  if (status === 304 || !response.content) return;
  const media = response.content[mediaType];
  if (!media) throw new Error(`${where}: content type "${mediaType}" is not documented for ${operation.path}`);
  if (!media.schema) return;
  const validate = validator(media.schema);
  if (!validate(body)) {
    throw new Error(`${where}: body does not match /openapi.json: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
  }
}

/**
 * Checks a webhook delivery a receiver got against the document's `webhooks` entry of its event type: every header
 * it documents, and the JSON body.
 */
export async function checkWebhookAgainstContract(
  baseUrl: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  body: { type?: unknown },
): Promise<void> {
  const { webhooks, validator } = await contractOf(baseUrl);
  const type = String(body.type);
  const entry = webhooks[type]?.post;
  if (!entry) throw new Error(`a delivery of type ${type}: no such entry under webhooks in /openapi.json`);
  for (const parameter of entry.parameters.filter((p) => p.in === 'header')) {
    const value = headers[parameter.name.toLowerCase()];
    if (!validator(parameter.schema)(value)) {
      throw new Error(`a ${type} delivery: header ${parameter.name}=${JSON.stringify(value)} does not match /openapi.json`);
    }
  }
  const validate = validator(entry.requestBody.content['application/json'].schema);
  if (!validate(body)) {
    throw new Error(`a ${type} delivery: body does not match /openapi.json: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
  }
}
