import { createHash } from 'node:crypto';
import { startSystem, waitFor, withPgClient, type RunningSystem } from '@libs/testing';
import { DEMO_STUDENT_ID, fixtures } from './finance-fixtures';
import { download, storedFiles, upload } from './files/file-requests';
import { jpeg, pdf, png, uploadForm } from './files/sample-files';
import { api } from './http';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Proofs of payment with their files: uploaded, named by a payment, read back whole and in ranges (docs/FINANCE.md, "Attachments"). */
describe('attachments of proofs of payment', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    // Expired uploads are swept each second here (every 10 minutes by default).
    system = await startSystem({ env: { finance: { FILE_SWEEP_INTERVAL_MS: '1000' } } });
  }, 90_000);
  afterAll(() => system?.shutdown());

  const submit = (key: string, body: Record<string, unknown>) =>
    api(system.gatewayUrl, '/api/v1/transactions/payments', { method: 'POST', key, body: { amount: 12_500, date: '2026-10-05', ...body } });
  const uploaded = async (key: string, file: Buffer, name: string) => {
    const answer = await upload(system, key, uploadForm(file, name));
    expect(answer.status).toBe(201);
    return answer.body as { id: string; name: string; type: string; size: number; sha256: string };
  };

  it('a student submits a PDF and a photo; the bursar downloads both, accepts, and downloads the receipt', async () => {
    const statementPdf = pdf(300_000);
    const photo = jpeg(150_000);
    // The names say nothing true: the type is read from the bytes.
    const first = await uploaded(system.keys.student, statementPdf, 'C:\\Users\\me\\bank:statement?.exe');
    const second = await uploaded(system.keys.student, photo, 'IMG_2041.png');
    expect(first).toMatchObject({ name: 'bank_statement_.exe', type: 'application/pdf', size: statementPdf.length, sha256: sha256(statementPdf), purpose: 'payment_proof' });
    expect(second).toMatchObject({ type: 'image/jpeg', size: photo.length, sha256: sha256(photo) });

    const submitted = await submit(system.keys.student, { fileIds: [first.id, second.id] });
    expect(submitted.status).toBe(201);
    const files = [first, second].map(({ id, name, type, size, sha256: hash }) => ({ id, name, type, size, sha256: hash }));
    expect(submitted.body.files).toEqual(files);

    const bursar = system.keys.bursar;
    const listed = await api(system.gatewayUrl, `/api/v1/transactions/payments?studentId=${DEMO_STUDENT_ID}&limit=500`, { key: bursar });
    expect(listed.body.payments.find((p: { id: string }) => p.id === submitted.body.id).files).toEqual(files);
    for (const [file, bytes] of [[first, statementPdf], [second, photo]] as const) {
      const got = await download(system, bursar, submitted.body.id, file.id);
      expect(got.status).toBe(200);
      expect(got.bytes.equals(bytes)).toBe(true);
      expect(got.headers.get('content-type')).toBe(file.type);
      expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-security-policy')).toBe('sandbox');
      expect(got.headers.get('etag')).toBe(`"${sha256(bytes)}"`);
    }

    const path = `/api/v1/transactions/payments/${submitted.body.id}`;
    expect((await api(system.gatewayUrl, path, { method: 'PATCH', key: bursar, body: { outcome: 'accepted' } })).status).toBe(200);
    const receipt = await fetch(`${system.gatewayUrl}${path}/receipt`, { headers: { authorization: `Bearer ${bursar}` } });
    expect(receipt.status).toBe(200);
    expect(receipt.headers.get('content-type')).toBe('application/pdf');

    // The audit log names the files by id, size and hash; never their bytes.
    const entry = await waitFor('the payment.submitted entry', async () => {
      const { body } = await api(system.gatewayUrl, `/api/v1/audit?entityId=${submitted.body.id}&action=payment.submitted`, { key: system.keys.admin });
      return body.entries?.[0];
    });
    expect(entry.after.files).toEqual(files);
    expect(JSON.stringify(entry).length).toBeLessThan(10_000);
  });

  it('serves one range with 206, refuses one past the end with 416, and sends it whole for a stale If-Range', async () => {
    const bytes = png(40, 30);
    const file = await uploaded(system.keys.student, bytes, 'reçu ✓.png');
    const payment = (await submit(system.keys.student, { fileIds: [file.id] })).body;
    const read = (headers: Record<string, string>) => download(system, system.keys.student, payment.id, file.id, headers);

    const middle = await read({ range: 'bytes=8-32' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 8-32/${bytes.length}`);
    expect(middle.bytes.equals(bytes.subarray(8, 33))).toBe(true);
    // A name outside ASCII: a stand-in for old clients, and the name itself (RFC 6266).
    expect(middle.headers.get('content-disposition')).toBe(`attachment; filename="re_u _.png"; filename*=UTF-8''re%C3%A7u%20%E2%9C%93.png`);
    const suffix = await read({ range: 'bytes=-12', 'if-range': `"${file.sha256}"` });
    expect(suffix.status).toBe(206);
    expect(suffix.bytes.equals(bytes.subarray(-12))).toBe(true);

    const past = await read({ range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    const stale = await read({ range: 'bytes=0-3', 'if-range': '"another"' });
    expect(stale.status).toBe(200);
    expect(stale.bytes.equals(bytes)).toBe(true);
  });

  it('answers 304 to If-None-Match with the file’s ETag, before any range, and the file to another tag', async () => {
    const bytes = pdf(20_000);
    const file = await uploaded(system.keys.student, bytes, 'slip.pdf');
    const payment = (await submit(system.keys.student, { fileIds: [file.id] })).body;
    const read = (headers: Record<string, string>) => download(system, system.keys.student, payment.id, file.id, headers);

    const first = await read({});
    const etag = first.headers.get('etag') ?? '';
    const conditions: Record<string, string>[] = [{ 'if-none-match': etag }, { 'if-none-match': `"x", W/${etag}`, range: 'bytes=0-9' }];
    for (const headers of conditions) {
      const unchanged = await read(headers);
      expect(unchanged.status).toBe(304);
      expect(unchanged.bytes.length).toBe(0);
      expect(unchanged.headers.get('etag')).toBe(etag);
    }
    const changed = await read({ 'if-none-match': '"another"' });
    expect(changed.status).toBe(200);
    expect(changed.bytes.equals(bytes)).toBe(true);
  });

  it('another student gets 404 for a payment’s file, as for a payment that does not exist', async () => {
    const other = await fixtures(system).student();
    const file = await uploaded(system.keys.bursar, pdf(), 'slip.pdf');
    const payment = (await submit(system.keys.bursar, { studentId: other.id, fileIds: [file.id] })).body;
    expect((await download(system, system.keys.admin, payment.id, file.id)).status).toBe(200);
    expect((await download(system, system.keys.student, payment.id, file.id)).status).toBe(404);
    expect((await download(system, system.keys.reader, payment.id, file.id)).status).toBe(403);
    // A file of another payment, named under this one, is no file of it.
    const own = await uploaded(system.keys.student, pdf(), 'mine.pdf');
    const mine = (await submit(system.keys.student, { fileIds: [own.id] })).body;
    expect((await download(system, system.keys.bursar, mine.id, file.id)).status).toBe(404);
  });

  it('a payment takes only unlinked uploads of the same user, at most three, each once; a refusal links nothing', async () => {
    const student = system.keys.student;
    const files = await Promise.all([1, 2, 3, 4].map((n) => uploaded(student, png(n, n), `${n}.png`)));
    const ids = files.map((file) => file.id);
    const bursars = await uploaded(system.keys.bursar, pdf(), 'bursar.pdf');
    const cases: [string[], string][] = [
      [ids, 'fileIds'],
      [[ids[0], ids[0]], 'fileIds[1]'],
      [[ids[0], bursars.id], 'fileIds[1]'],
      [['00000000-0000-4000-8000-000000000000'], 'fileIds[0]'],
    ];
    for (const [fileIds, field] of cases) {
      const refused = await submit(student, { fileIds });
      expect({ fileIds, status: refused.status, fields: refused.body.errors.map((e: { field: string }) => e.field) }).toEqual({ fileIds, status: 400, fields: [field] });
    }
    // Nothing was linked by the refusals: the same files are still free to name.
    const taken = await submit(student, { fileIds: ids.slice(0, 3) });
    expect(taken.body.files.map((file: { id: string }) => file.id)).toEqual(ids.slice(0, 3));
    expect((await submit(student, { fileIds: [ids[0]] })).status).toBe(400);
  });

  it('an upload no payment names expires, and the sweep deletes it with its chunks, with no other upload', async () => {
    const stale = await uploaded(system.keys.student, pdf(200_000), 'late.pdf');
    await withPgClient(system.databaseUrl('finance'), (client) => client.query(`UPDATE files SET created_at = now() - interval '25 hours' WHERE id = $1`, [stale.id]));
    expect((await submit(system.keys.student, { fileIds: [stale.id] })).status).toBe(400);
    const before = await storedFiles(system);
    // The expired file's chunks (four of 64 KB) go with it.
    await waitFor('the sweep to remove the expired upload', async () => {
      const now = await storedFiles(system);
      return now.files === before.files - 1 ? now : undefined;
    });
    expect((await storedFiles(system)).chunks).toBe(before.chunks - 4);
  });
});
