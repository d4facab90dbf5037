import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { startSystem, waitFor, type RunningSystem } from '@libs/testing';
import { download, storedFiles, upload } from './files/file-requests';
import { jpeg, pdf, uploadForm } from './files/sample-files';
import { api } from './http';

const BUCKET = 'proofs';
/** s3rver's fixed credentials. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** FILE_STORAGE=s3: the same API over an S3-compatible server (s3rver, started here), files as objects. */
describe('attachments in an S3-compatible bucket', () => {
  let system: RunningSystem;
  let s3rver: S3rver;
  let directory: string;
  let s3: S3Client;
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 's3rver-'));
    s3rver = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true, configureBuckets: [{ name: BUCKET }] });
    const { port } = await s3rver.run();
    const endpoint = `http://127.0.0.1:${port}`;
    s3 = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
    system = await startSystem({
      env: {
        finance: {
          FILE_STORAGE: 's3',
          S3_ENDPOINT: endpoint,
          S3_BUCKET: BUCKET,
          S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
          S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
        },
      },
    });
  }, 90_000);
  afterAll(async () => {
    await system?.shutdown();
    await s3rver?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  const objects = async () => ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((object) => object.Key).sort();
  // Every file s3rver holds, objects and multipart parts alike (it does not list open multipart uploads).
  const storedOnDisk = () => readdirSync(directory, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;

  it('stores each file as one object (in 5 MB parts), reads it whole and in a range, and keeps no chunk in PostgreSQL', async () => {
    const big = pdf(7 * 1024 * 1024);
    const photo = jpeg(10_000);
    const files = [];
    for (const [bytes, name] of [[big, 'scan.pdf'], [photo, 'photo.jpg']] as const) {
      const answer = await upload(system, system.keys.student, uploadForm(bytes, name));
      expect(answer.status).toBe(201);
      files.push(answer.body);
    }
    expect(await objects()).toEqual(files.map((file) => file.id).sort());
    expect((await storedFiles(system)).chunks).toBe(0);

    const payment = await api(system.gatewayUrl, '/api/v1/transactions/payments', {
      method: 'POST',
      key: system.keys.student,
      body: { amount: 1_000, date: '2026-10-07', fileIds: files.map((file) => file.id) },
    });
    expect(payment.status).toBe(201);
    const whole = await download(system, system.keys.bursar, payment.body.id, files[0].id);
    expect(whole.bytes.equals(big)).toBe(true);
    // A range across the first part's end.
    const from = 5 * 1024 * 1024 - 100;
    const part = await download(system, system.keys.bursar, payment.body.id, files[0].id, { range: `bytes=${from}-${from + 199_999}` });
    expect(part.status).toBe(206);
    expect(part.bytes.equals(big.subarray(from, from + 200_000))).toBe(true);
  });

  it('leaves no object and no open multipart upload for a refused file', async () => {
    const before = await objects();
    const onDisk = storedOnDisk();
    // Past the first 5 MB part, then not a PDF's end: refused once the last byte is in.
    const truncated = pdf(8 * 1024 * 1024).subarray(0, 6 * 1024 * 1024);
    expect((await upload(system, system.keys.student, uploadForm(truncated, 'cut.pdf'))).status).toBe(415);
    expect((await upload(system, system.keys.student, uploadForm(Buffer.from('<svg/>'), 'x.png'))).status).toBe(415);
    await waitFor('the refused uploads gone', async () => ((await storedFiles(system)).files === 2 ? true : undefined));
    expect(await objects()).toEqual(before);
    expect(storedOnDisk()).toBe(onDisk);
  });
});
