import { QueryTypes, type Transaction } from 'sequelize';
import { SCHEDULING_LIMITS, schedulingApi, schedulingV1 } from '@libs/contracts';
import { GrpcStatus, ProblemError, requirePermission, type CallContext } from '@libs/grpc';
import { recordEvent, writeTransaction } from '@libs/outbox';
import { keysetPage, pageSize } from '@libs/cursor';
import { checkVersion, FieldChecks, notFound, parseInput, requireUuid } from '@libs/validation';
import { isStartAndId } from '../keyset-positions';
import { readersOf, requireStaffing, scopeOf } from '../access';
import { APPOINTMENT_COLUMNS, instantRange, type AppointmentRow } from '../appointments/appointment-row';
import { MOVES } from '../appointments/appointment-states';
import { reclaimExpiredHolds, recordChange, setStatus } from '../appointments/appointment-store';
import { BLOCK_CANCELLATION_REASON } from '../appointments/cancellation-reasons';
import { PREMISE_ID } from '../locations/location-store';
import type { SchedulingDeps } from '../scheduling-deps';
import { exclusionBroken } from '../allocation-exclusion';
import { findResource } from '../resources/resource-store';
import { parseInstant, timeChecks } from '../time/time-input';
import { formatInstant } from '../time/zoned-time';

const { blockDays: MAX_BLOCK_DAYS, blockOverlapsListed: LISTED } = SCHEDULING_LIMITS;

interface BlockRow {
  id: string;
  resource_id: string;
  start_ms: number;
  end_ms: number;
  time_zone: string;
  reason: string;
  created_by: string;
  active: boolean;
  version: number;
  created_at: Date;
}

const BLOCK_COLUMNS = `b.id::text, b.resource_id::text, (extract(epoch FROM lower(b.span)) * 1000)::float8 AS start_ms,
  (extract(epoch FROM upper(b.span)) * 1000)::float8 AS end_ms, b.time_zone, b.reason, b.created_by, b.active, b.version, b.created_at`;

const toBlock = (row: BlockRow): schedulingV1.Block => ({
  id: row.id,
  resourceId: row.resource_id,
  start: formatInstant(row.start_ms, row.time_zone),
  end: formatInstant(row.end_ms, row.time_zone),
  timeZone: row.time_zone,
  reason: row.reason,
  createdBy: row.created_by,
  version: row.version,
  createdAt: formatInstant(row.created_at.getTime(), row.time_zone),
});

export function blockHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;

  const findBlock = async (id: string, transaction?: Transaction, lock = false) =>
    (
      await sequelize.query<BlockRow>(`SELECT ${BLOCK_COLUMNS} FROM blocks b WHERE b.id = $1 AND b.active ${lock ? 'FOR UPDATE' : ''}`, {
        bind: [id],
        type: QueryTypes.SELECT,
        transaction,
      })
    )[0];

  return {
    async listBlocks(request: schedulingV1.ListBlocksRequest, context: CallContext): Promise<schedulingV1.ListBlocksResponse> {
      requirePermission(context, 'scheduling:browse');
      const checks = new FieldChecks()
        .uuid(request.resourceId, 'resourceId', { required: false })
        .check(request.locationId === '' || PREMISE_ID.test(request.locationId), 'locationId', 'must be a premise id')
        .check(request.resourceId !== '' || request.locationId !== '', 'resourceId', 'give a resourceId or a locationId');
      const from = request.from ? timeChecks.instant(checks, request.from, 'from') : undefined;
      const to = request.to ? timeChecks.instant(checks, request.to, 'to') : undefined;
      checks.throwIfAny();
      const query = { ...request, cursor: undefined, limit: undefined };
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query,
        limit: pageSize(request.limit, SCHEDULING_LIMITS.page),
        isPosition: isStartAndId,
        positionOf: (row: BlockRow): [number, string] => [row.start_ms, row.id],
        fetch: (after, limit) => sequelize.query<BlockRow>(
        `SELECT ${BLOCK_COLUMNS} FROM blocks b JOIN resources r ON r.id = b.resource_id
          WHERE b.active AND ($1 = '' OR b.resource_id::text = $1) AND ($2 = '' OR r.location_id = $2)
            AND ($3::float8 IS NULL OR upper(b.span) > to_timestamp($3::float8 / 1000))
            AND ($4::float8 IS NULL OR lower(b.span) < to_timestamp($4::float8 / 1000))
            AND ($5::float8 IS NULL OR (lower(b.span), b.id) > (to_timestamp($5::float8 / 1000), $6::uuid))
          ORDER BY lower(b.span), b.id LIMIT $7`,
        { bind: [request.resourceId.toLowerCase(), request.locationId, from ?? null, to ?? null, after?.[0] ?? null, after?.[1] ?? null, limit], type: QueryTypes.SELECT },
        ),
      });
      return { blocks: page.rows.map(toBlock), nextCursor: page.nextCursor };
    },

    /**
     * Time off or a closure. Over appointments it fails, naming them, unless asked to cancel them: then they are
     * cancelled (reason prov) in the same transaction as the block is written.
     */
    async createBlock(request: schedulingV1.CreateBlockRequest, context: CallContext): Promise<schedulingV1.CreateBlockResponse> {
      const actor = requirePermission(context, 'scheduling:block');
      const { resourceId, start, end, reason, cancelOverlapping } = request;
      parseInput(schedulingApi.newBlock, { resourceId, start, end, reason, cancelOverlapping });
      const [from, until] = [parseInstant(start) as number, parseInstant(end) as number];
      new FieldChecks()
        .check(until > from, 'end', 'must be after start')
        .check(until - from <= MAX_BLOCK_DAYS * 86_400_000, 'end', `must be at most ${MAX_BLOCK_DAYS} days after start`)
        .throwIfAny();
      const resource = await findResource(sequelize, request.resourceId.toLowerCase());
      if (!resource) throw notFound('resource');
      requireStaffing(await scopeOf(sequelize, actor), resource.id);
      const { idempotencyKey, ...fields } = request;
      const call = { method: 'CreateBlock', key: idempotencyKey, request: fields, codec: schedulingV1.CreateBlockResponse, actor, context };
      return writeTransaction(deps, call, async (transaction) => {
        await reclaimExpiredHolds(sequelize, transaction, context, {
          resourceId: resource.id,
          occupiedStart: from,
          occupiedEnd: until,
          studentId: '',
          start: from,
          end: until,
        });
        const under = await sequelize.query<AppointmentRow>(
          `SELECT ${APPOINTMENT_COLUMNS} FROM appointments a JOIN allocation l ON l.appointment_id = a.id
            WHERE l.active AND l.resource_id = $1 AND l.occupied && ${instantRange('$2', '$3')} ORDER BY a.id FOR UPDATE OF a`,
          { bind: [resource.id, from, until], type: QueryTypes.SELECT, transaction },
        );
        const cancellable = (row: AppointmentRow) => (MOVES.cancel.from as readonly string[]).includes(row.status);
        if (under.length > 0 && (!request.cancelOverlapping || !under.every(cancellable))) {
          throw new ProblemError(
            GrpcStatus.FAILED_PRECONDITION,
            `the block overlaps ${under.length} appointment(s); cancel them with cancelOverlapping, or block other times`,
            {
              type: 'overlapping_appointments',
              appointments: under.slice(0, LISTED).map((row) => ({
                id: row.id,
                status: row.status,
                start: formatInstant(row.start_ms, row.time_zone),
                end: formatInstant(row.end_ms, row.time_zone),
              })),
              more: Math.max(0, under.length - LISTED),
            },
          );
        }
        for (const row of under) {
          const late = row.db_now > row.start_ms - row.policy.cancelCutoffMinutes * 60_000;
          await setStatus(sequelize, transaction, row, 'cancelled', {
            cancel_reason_code: BLOCK_CANCELLATION_REASON,
            cancel_reason_text: request.reason.trim(),
            cancelled_by: actor.userId,
            cancelled_by_role: actor.role,
            cancelled_late: row.status !== 'held' && late,
            stamp: 'cancelled_at',
          });
          await recordChange(sequelize, transaction, context, actor, { action: 'cancelled', before: row, id: row.id });
        }
        const [{ id }] = await sequelize.query<{ id: string }>(
          `INSERT INTO blocks (resource_id, span, time_zone, reason, created_by) VALUES ($1, ${instantRange('$2', '$3')}, $4, $5, $6) RETURNING id::text`,
          { bind: [resource.id, from, until, resource.time_zone, request.reason.trim(), actor.userId], type: QueryTypes.SELECT, transaction },
        );
        await sequelize
          .query(`INSERT INTO allocation (resource_id, block_id, span, occupied) VALUES ($1, $2, ${instantRange('$3', '$4')}, ${instantRange('$3', '$4')})`, {
            bind: [resource.id, id, from, until],
            transaction,
          })
          .catch((error: unknown) => {
            if (!exclusionBroken(error)) throw error;
            throw new ProblemError(GrpcStatus.FAILED_PRECONDITION, 'another block, or an appointment made meanwhile, overlaps this time', {
              type: 'overlapping_block',
            });
          });
        const block = toBlock((await findBlock(id, transaction)) as BlockRow);
        await recordEvent(sequelize, transaction, context, actor, { action: 'block.created', entityType: 'block', entityIds: [id], before: null, after: block }, readersOf);
        return { block, cancelledAppointmentIds: under.map((row) => row.id) };
      });
    },

    async deleteBlock(request: schedulingV1.DeleteBlockRequest, context: CallContext): Promise<schedulingV1.DeleteBlockResponse> {
      const actor = requirePermission(context, 'scheduling:block');
      const id = requireUuid(request.id);
      return writeTransaction(deps, undefined, async (transaction) => {
        const row = await findBlock(id, transaction, true);
        if (!row) throw notFound('block');
        requireStaffing(await scopeOf(sequelize, actor, transaction), row.resource_id);
        checkVersion('block', row.version, request.expectedVersion);
        await sequelize.query('UPDATE blocks SET active = false, version = version + 1, updated_at = now() WHERE id = $1', { bind: [id], transaction });
        await sequelize.query('UPDATE allocation SET active = false WHERE block_id = $1', { bind: [id], transaction });
        await recordEvent(sequelize, transaction, context, actor, { action: 'block.deleted', entityType: 'block', entityIds: [id], before: toBlock(row), after: null }, readersOf);
        return { id };
      });
    },
  };
}
