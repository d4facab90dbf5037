import { createHash, randomUUID } from 'node:crypto';
import { financeApi, type financeV1 } from '@libs/contracts';
import { CallCancelled, requirePermission, RpcError, type CallContext } from '@libs/grpc';
import { notFound, requireUuid } from '@libs/validation';
import { canSee, scopeOf } from '../access';
import type { FinanceDeps } from '../finance-deps';
import { findPayment } from '../payments/payment-store';
import { ContentCheck } from './file-content';
import { sanitisedFileName } from './file-name';
import type { FileStorage } from './file-storage';
import { removeFiles } from './file-removal';
import { completeUpload, findPaymentFile, insertUpload } from './file-store';

/** The bytes of an upload's messages, each checked (type, size) before it goes on to storage. */
async function* checkedBytes(first: financeV1.UploadFileRequest, rest: AsyncIterator<financeV1.UploadFileRequest>, check: ContentCheck, hash: ReturnType<typeof createHash>) {
  const pass = (chunk: Buffer) => {
    check.take(chunk);
    hash.update(chunk);
    return chunk;
  };
  if (first.chunk.length > 0) yield pass(first.chunk);
  let last = first.last;
  for (let next = await rest.next(); !next.done && !last; next = await rest.next()) {
    if (next.value.chunk.length > 0) yield pass(next.value.chunk);
    last = next.value.last;
  }
  // grpc-js may end a cancelled call's stream as if the caller had finished: only the marked last message says so.
  if (!last) throw new CallCancelled();
}

/** Uploads (a stream of chunks into the configured storage) and the download of a payment's file. */
export function fileHandlers(deps: FinanceDeps & { files: FileStorage }) {
  const { sequelize, files: storage } = deps;

  return {
    async uploadFile(requests: AsyncIterable<financeV1.UploadFileRequest>, context: CallContext): Promise<financeV1.UploadFileResponse> {
      const actor = requirePermission(context, 'payments:submit');
      const messages = requests[Symbol.asyncIterator]();
      const first = await messages.next();
      if (first.done) throw RpcError.invalidArgument('file', 'is required');
      const purpose = financeApi.filePurpose.safeParse(first.value.purpose);
      if (!purpose.success) throw RpcError.invalidArgument('purpose', purpose.error.issues[0].message);
      const id = randomUUID();
      await insertUpload(sequelize, { id, purpose: purpose.data, name: sanitisedFileName(first.value.name), uploadedBy: actor.userId, storage: storage.kind });
      const check = new ContentCheck();
      const hash = createHash('sha256');
      try {
        await storage.write(id, checkedBytes(first.value, messages, check, hash));
        const file = await completeUpload(sequelize, id, { type: check.finish(), size: check.size, sha256: hash.digest('hex') });
        return { file };
      } catch (error) {
        // Refused, cancelled or failed: nothing of it stays.
        await removeFiles(sequelize, storage, [id]);
        throw error;
      }
    },

    async *downloadFile(request: financeV1.DownloadFileRequest, context: CallContext): AsyncIterable<financeV1.DownloadFileResponse> {
      const actor = requirePermission(context, 'finance:read');
      const paymentId = requireUuid(request.paymentId);
      const fileId = requireUuid(request.fileId);
      const scope = await scopeOf(sequelize, actor);
      const payment = await findPayment(sequelize, paymentId);
      // Another student's payment is answered exactly like a missing one, so ids cannot be probed.
      if (!payment || !canSee(scope, payment.studentId)) throw notFound('payment');
      const found = await findPaymentFile(sequelize, paymentId, fileId);
      if (!found) throw notFound('file');
      const size = Number(found.file.size);
      const offset = Number(request.offset);
      const length = Number(request.length) || size - offset;
      if (offset < 0 || length < 0 || offset + length > size) throw RpcError.invalidArgument('range', `must lie within the file's ${size} bytes`);
      for await (const chunk of storage.read(fileId, offset, length)) yield { chunk };
    },
  };
}
