import { z } from 'zod';
import { FILE_LIMITS, financeApi } from '@libs/contracts';
import { operation } from '../platform/routing/operation';
import { byId } from '../platform/routing/path-ids';
import { json, noContent, problem } from '../platform/routing/responses';
import { documentHeaders, tag } from './finance-operation-parts';
import { uploadedFile } from './schemas';

/** Files: uploaded first, then named by the request they belong to (docs/decisions/0020, docs/FINANCE.md, "Attachments"). */

const MEGABYTES = FILE_LIMITS.maxBytes / (1024 * 1024);

export const uploadFile = operation({
  method: 'post',
  path: '/api/v1/files',
  operationId: 'uploadFile',
  summary: 'Upload a file for a later request to name (a proof of payment’s attachment)',
  description:
    `\`multipart/form-data\` with the field \`purpose\` first, then one part \`file\`. A PDF, JPEG or PNG, told by its content (never by its name ` +
    `or Content-Type), at most ${MEGABYTES} MB; a PNG may declare at most ${FILE_LIMITS.maxPixels} pixels. Name its id in \`fileIds\` of ` +
    `\`POST /api/v1/transactions/payments\` within ${FILE_LIMITS.unlinkedHours} h; unnamed, it is deleted then. Nothing of a refused file is kept.`,
  tag,
  access: { key: 'payments:submit' },
  bodyMedia: 'multipart/form-data',
  request: {
    body: z.object({
      purpose: financeApi.filePurpose.meta({ description: 'What the file is for; before `file`.' }),
      file: z.string().meta({ format: 'binary', description: 'The file; its name is kept as a label.' }),
    }),
  },
  responses: {
    '201': json('The file, stored.', uploadedFile),
    '413': problem(`The file is larger than ${MEGABYTES} MB.`),
    '415': problem('The body is not multipart/form-data, or the file is not an acceptable PDF, JPEG or PNG.'),
    '503': problem(
      `${FILE_LIMITS.concurrentUploads} uploads were streaming and none ended within half the request timeout; nothing of the body was read. Send it again after \`Retry-After\`.`,
    ),
  },
});

export const getPaymentFile = operation({
  method: 'get',
  path: '/api/v1/transactions/payments/{id}/files/{fileId}',
  operationId: 'getPaymentFile',
  summary: 'A file submitted with a payment',
  description:
    'Sent as an attachment, never to be shown inline (`Content-Security-Policy: sandbox`, `X-Content-Type-Options: nosniff`). `ETag` is its ' +
    'SHA-256: `If-None-Match` with it answers 304; one byte range is served (206), with `If-Range`. The student reads their own payment’s files; finance staff any.',
  tag,
  access: { key: 'finance:read' },
  request: {
    path: byId('Payment').extend({ fileId: financeApi.uuid.meta({ description: 'File id, from the payment’s `files`.' }) }),
    headers: z.object({
      Range: z.string().optional().meta({ description: 'One range, `bytes=first-last`, `bytes=first-` or `bytes=-suffix`; others are ignored (200).' }),
      'If-Range': z.string().optional().meta({ description: 'The ETag: the range is served only while the file is that one.' }),
      'If-None-Match': z.string().optional().meta({ description: 'The ETag of a copy held: 304 while the file is that one.' }),
    }),
  },
  responses: {
    '200': {
      description: 'The file.',
      content: { 'application/pdf': z.string(), 'image/jpeg': z.string(), 'image/png': z.string() },
      headers: { ...documentHeaders, ETag: { description: 'The SHA-256 of the content, quoted.', schema: z.string() } },
    },
    '206': {
      description: 'The range asked for.',
      content: { 'application/pdf': z.string(), 'image/jpeg': z.string(), 'image/png': z.string() },
      headers: { ...documentHeaders, 'Content-Range': { description: '`bytes first-last/size`.', schema: z.string() } },
    },
    '304': noContent('The copy whose ETag was sent in If-None-Match is current.'),
    '404': problem('No such payment (or not yours), or the payment has no such file.'),
    '416': problem('The range lies outside the file; `Content-Range: bytes */size`.'),
  },
});
