import { withPgClient, type RunningSystem } from '@libs/testing';
import { checkAgainstContract } from '../contract';
import type { ApiResponse } from '../http';

/** Uploads and downloads as a client makes them, each answer checked against the document like api()'s. */

export async function upload(system: RunningSystem, key: string, body: FormData | string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  const response = await fetch(`${system.gatewayUrl}/api/v1/files`, { method: 'POST', headers: { authorization: `Bearer ${key}`, ...headers }, body });
  const text = await response.text();
  const parsed: unknown = text ? JSON.parse(text) : undefined;
  await checkAgainstContract(system.gatewayUrl, 'POST', '/api/v1/files', response.status, response.headers.get('content-type'), parsed);
  return { status: response.status, headers: response.headers, body: parsed };
}

export interface Download {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

export async function download(system: RunningSystem, key: string, paymentId: string, fileId: string, headers: Record<string, string> = {}): Promise<Download> {
  const path = `/api/v1/transactions/payments/${paymentId}/files/${fileId}`;
  const response = await fetch(`${system.gatewayUrl}${path}`, { headers: { authorization: `Bearer ${key}`, ...headers } });
  const bytes = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type');
  const body = type?.includes('json') ? JSON.parse(bytes.toString('utf8')) : bytes.toString('latin1');
  await checkAgainstContract(system.gatewayUrl, 'GET', path, response.status, type, body);
  return { status: response.status, headers: response.headers, bytes };
}

/** What the finance database holds of uploads: rows and chunks, to prove a refusal kept nothing. */
export async function storedFiles(system: RunningSystem): Promise<{ files: number; chunks: number }> {
  return withPgClient(system.databaseUrl('finance'), async (client) => {
    const { rows } = await client.query('SELECT (SELECT count(*)::int FROM files) AS files, (SELECT count(*)::int FROM file_chunks) AS chunks');
    return rows[0] as { files: number; chunks: number };
  });
}
