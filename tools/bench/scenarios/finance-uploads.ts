import { bearer, type Scenario } from '../context';

const BOUNDARY = 'bench-upload-boundary';

/** A multipart upload of a PDF of `bytes` bytes, padded with a comment: ASCII throughout, so the load runner's string body is byte for byte. */
function uploadBody(bytes: number): string {
  const head = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n%';
  const tail = '\n%%EOF\n';
  const file = head + 'x'.repeat(bytes - head.length - tail.length) + tail;
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\npayment_proof\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="bench.pdf"\r\nContent-Type: application/pdf\r\n\r\n` +
    `${file}\r\n--${BOUNDARY}--\r\n`
  );
}

/**
 * Concurrent uploads of proofs of payment (docs/decisions/0020): 20 at once, 5 MB each, streamed through the gateway
 * into finance's database. Throughput and p99 here; each process's peak RSS is the report's, for this phase.
 */
export const uploads: Scenario = async (context) => {
  const megabytes = 5;
  // Smoke: one round of 20 (100 MB), enough to see the per-upload memory; full: ten rounds (1 GB).
  const amount = context.smoke ? 20 : 200;
  const result = context.record({
    scenario: `uploads, 20 at once, ${megabytes} MB each`,
    target: 'system',
    result: await context.load(
      context.gatewayUrl,
      [
        {
          method: 'POST',
          path: '/api/v1/files',
          headers: { ...bearer(context.keys.student), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
          body: uploadBody(megabytes * 1024 * 1024),
        },
      ],
      { connections: 20, amount, timeout: 120 },
    ),
  });
  context.note('upload throughput', Math.round(result.requestsPerSecond * megabytes * 10) / 10, 'MB/s');
};
