/** Small helpers for talking to the gateway the way a client does. */
import { checkAgainstContract } from './contract';

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
}

export async function api(
  baseUrl: string,
  path: string,
  options: {
    key?: string;
    method?: string;
    body?: unknown;
    rawBody?: string;
    headers?: Record<string, string>;
    /** Skip the /openapi.json check, for tests of what happens before the gateway routes (e.g. with it down). */
    unchecked?: boolean;
  } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const method = options.method ?? 'GET';
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  if (!options.unchecked) {
    await checkAgainstContract(baseUrl, method, path, response.status, response.headers.get('content-type'), parsed);
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

export const DEMO_ACCOUNT_ID = '00000000-0000-4000-8000-00000000a001';
export const DEMO_CATEGORY_ID = '00000000-0000-4000-8000-00000000c001';

export const validTransaction = (overrides: Record<string, unknown> = {}) => ({
  date: '2026-09-01',
  categoryId: DEMO_CATEGORY_ID,
  payee: 'Registrar',
  amount: -125_000,
  accountId: DEMO_ACCOUNT_ID,
  ...overrides,
});
