import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './generated/api';
import { ApiProblemError } from './problem-error';

export interface ApiClientOptions {
  /** Where the gateway is: `https://api.example.org` (the paths carry `/api/v1`). */
  baseUrl: string;
  /** An API key (`cfk_…`) or a dashboard session token, sent as `Authorization: Bearer`. */
  apiKey?: string;
  /** Another fetch (tests, proxies); the global one otherwise. */
  fetch?: typeof fetch;
}

/**
 * The API's own JSON, not FHIR: each operation's `data` is typed from its `application/json` answer
 * only, so `data.tests` and `data.nextCursor` need no type guard. FHIR clients use the FHIR base.
 */
export type ApiClient = Client<paths, 'application/json'>;

/**
 * A typed client of every operation (`client.GET('/api/v1/labs', { params: { query: { n: 'sodium' } } })`).
 * Any answer of 400 or more rejects with an ApiProblemError instead of resolving.
 */
export const createApiClient = (options: ApiClientOptions): ApiClient => withKey(createClient<paths, 'application/json'>(clientOptions(options)), options);

/**
 * The FHIR answers typed instead: for the operations that answer FHIR alone (the terminology operations,
 * `GET /api/v1/CodeSystem/$lookup`, `GET /api/v1/ValueSet/$expand`, …), whose `data` is the FHIR resource.
 * Errors reject with an ApiProblemError as well (its `problem` is undefined: the body is an OperationOutcome).
 */
export type FhirApiClient = Client<paths, 'application/fhir+json'>;

export const createFhirClient = (options: ApiClientOptions): FhirApiClient =>
  withKey(createClient<paths, 'application/fhir+json'>(clientOptions(options)), options);

const clientOptions = (options: ApiClientOptions) => ({ baseUrl: options.baseUrl.replace(/\/+$/, ''), fetch: options.fetch });

/** Sends the key with every request, and turns every answer of 400 or more into an ApiProblemError. */
function withKey<C extends { use(middleware: Middleware): void }>(client: C, options: ApiClientOptions): C {
  const middleware: Middleware = {
    onRequest({ request }) {
      if (options.apiKey && !request.headers.has('authorization')) request.headers.set('Authorization', `Bearer ${options.apiKey}`);
      return request;
    },
    async onResponse({ response }) {
      if (response.status >= 400) throw await ApiProblemError.from(response);
      return response;
    },
  };
  client.use(middleware);
  return client;
}

/**
 * The data of an answer known to have a body: errors already threw, so only a 304 (a conditional
 * request) or a 204 lacks one, and asking for it there is a mistake worth an error.
 */
export async function ok<T>(call: Promise<{ data?: T; response: Response }>): Promise<T> {
  const { data, response } = await call;
  if (data === undefined) throw new Error(`${response.status} has no body`);
  return data;
}

/**
 * Every page of a list, following `nextCursor` until the last page: `fetchPage` gets the cursor
 * (undefined for the first page) and sends it as `cursor` with the same filters.
 */
export async function* pages<T extends { nextCursor?: string }>(fetchPage: (cursor: string | undefined) => Promise<{ data?: T; response: Response }>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await ok(fetchPage(cursor));
    yield page;
    cursor = page.nextCursor;
  } while (cursor);
}

/**
 * A fresh `Idempotency-Key` for one logical write: send the same key when retrying that write (after a
 * timeout, say) and the API performs it at most once, answering the retry with the first result.
 */
export const newIdempotencyKey = (): string => randomUUID();

/** A document the API answered (a statement or receipt PDF, a CSV): its bytes and what its headers say of it. */
export interface DownloadedDocument {
  bytes: Uint8Array;
  contentType: string;
  /** From `Content-Disposition`. */
  fileName: string | undefined;
  /** A PDF's number and the SHA-256 of its content, as printed on it. */
  documentNumber: string | undefined;
  sha256: string | undefined;
}

/**
 * The bytes of a document, from a call made with `parseAs: 'arrayBuffer'`:
 * `downloadDocument(client.GET('/api/v1/transactions/payments/{id}/receipt', { params: { path: { id } }, parseAs: 'arrayBuffer' }))`.
 */
export async function downloadDocument(call: Promise<{ data?: unknown; response: Response }>): Promise<DownloadedDocument> {
  const { data, response } = await call;
  if (!(data instanceof ArrayBuffer)) throw new Error(`${response.status} has no document: ask with parseAs: 'arrayBuffer'`);
  const header = (name: string) => response.headers.get(name) ?? undefined;
  return {
    bytes: new Uint8Array(data),
    contentType: header('content-type') ?? '',
    fileName: /filename="([^"]*)"/.exec(header('content-disposition') ?? '')?.[1],
    documentNumber: header('x-document-number'),
    sha256: header('x-document-sha256'),
  };
}

type UploadParts = paths['/api/v1/files']['post']['requestBody']['content']['multipart/form-data'];

/**
 * The options of an upload, its body as multipart/form-data with the purpose before the file:
 * `client.POST('/api/v1/files', fileUpload('payment_proof', blob, 'slip.pdf'))`, then name the answer's `id` in
 * `fileIds` of the payment. A Blob (a File in a browser) is streamed by fetch, never copied whole.
 */
export function fileUpload(purpose: UploadParts['purpose'], file: Blob, name: string) {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', file, name);
  // The typed body names the parts; what is sent is the form, which openapi-fetch passes to fetch as it is.
  return { body: { purpose, file: name }, bodySerializer: () => form };
}
