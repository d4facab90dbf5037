import type { Sequelize } from 'sequelize';
import { AUDIT_LIMITS, type auditV1 } from '@libs/contracts';
import { keysetPage, pageSize, type CursorCodec } from '@libs/cursor';
import { requirePermission, type CallContext } from '@libs/grpc';
import { isSequence } from '../entries/entry-handlers';
import type { CheckpointKeys } from './checkpoint-keys';
import { checkpointHead, listCheckpoints } from './checkpoint-store';

/** Checkpoints: signed on demand by any admin (it attests what is there, and changes nothing else), and listed with their keys. */
export function checkpointHandlers(sequelize: Sequelize, keys: CheckpointKeys, cursors: CursorCodec) {
  return {
    async createCheckpoint(_: auditV1.CreateCheckpointRequest, context: CallContext): Promise<auditV1.CreateCheckpointResponse> {
      requirePermission(context, 'audit:read');
      return { checkpoint: await checkpointHead(sequelize, keys) };
    },

    async listCheckpoints(request: auditV1.ListCheckpointsRequest, context: CallContext): Promise<auditV1.ListCheckpointsResponse> {
      requirePermission(context, 'audit:read');
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query: { list: 'checkpoints' },
        limit: pageSize(request.limit, AUDIT_LIMITS.checkpointPage),
        isPosition: isSequence,
        positionOf: (checkpoint: auditV1.Checkpoint) => checkpoint.sequence,
        fetch: (beforeSequence, limit) => listCheckpoints(sequelize, { limit, beforeSequence }),
      });
      const current = keys.current.keyId;
      return {
        checkpoints: page.rows,
        keys: keys.all().map((key) => ({ keyId: key.keyId, x: key.x, current: key.keyId === current })),
        nextCursor: page.nextCursor,
      };
    },
  };
}
