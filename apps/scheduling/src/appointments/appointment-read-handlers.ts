import { QueryTypes } from 'sequelize';
import { appointmentsApi, SCHEDULING_LIMITS, type schedulingV1 } from '@libs/contracts';
import { requirePermission, type CallContext } from '@libs/grpc';
import { keysetPage, pageSize } from '@libs/cursor';
import { given, notFound, parseInput, requireUuid } from '@libs/validation';
import { isStartAndId } from '../keyset-positions';
import { canSee, scopeCondition, scopeOf } from '../access';
import type { SchedulingDeps } from '../scheduling-deps';
import { parseInstant } from '../time/time-input';
import { formatInstant } from '../time/zoned-time';
import { APPOINTMENT_COLUMNS, toAppointment, type AppointmentRow } from './appointment-row';
import { findAppointment } from './appointment-store';

export function appointmentReadHandlers(deps: SchedulingDeps) {
  const { sequelize, cursors } = deps;

  async function visible(context: CallContext, rawId: string): Promise<AppointmentRow> {
    const actor = requirePermission(context, 'appointments:read');
    const id = requireUuid(rawId);
    const row = await findAppointment(sequelize, id);
    if (!row || !canSee(await scopeOf(sequelize, actor), row)) throw notFound('appointment');
    return row;
  }

  return {
    async getAppointment(request: schedulingV1.GetAppointmentRequest, context: CallContext): Promise<schedulingV1.GetAppointmentResponse> {
      return { appointment: toAppointment(await visible(context, request.id)) };
    },

    async getAppointmentHistory(
      request: schedulingV1.GetAppointmentHistoryRequest,
      context: CallContext,
    ): Promise<schedulingV1.GetAppointmentHistoryResponse> {
      const row = await visible(context, request.id);
      const entries = await sequelize.query<{
        version: number; sequence: number; action: string; status: string; start_ms: number; end_ms: number;
        actor_id: string; actor_role: string; at: Date; reason_code: string | null; late: boolean;
      }>(
        `SELECT version, sequence, action, status, (extract(epoch FROM lower(span)) * 1000)::float8 AS start_ms,
                (extract(epoch FROM upper(span)) * 1000)::float8 AS end_ms, actor_id, actor_role, at, reason_code, late
           FROM appointment_history WHERE appointment_id = $1 ORDER BY version`,
        { bind: [row.id], type: QueryTypes.SELECT },
      );
      const zone = row.time_zone;
      return {
        entries: entries.map((entry) => ({
          version: entry.version,
          sequence: entry.sequence,
          action: entry.action,
          status: entry.status,
          start: formatInstant(entry.start_ms, zone),
          end: formatInstant(entry.end_ms, zone),
          actorId: entry.actor_id,
          actorRole: entry.actor_role,
          at: formatInstant(entry.at.getTime(), zone),
          reasonCode: entry.reason_code ?? '',
          late: entry.late,
        })),
      };
    },

    /** A student sees their own; a clinician those of the resources they staff; an admin all. By start, then id. */
    async listAppointments(
      request: schedulingV1.ListAppointmentsRequest,
      context: CallContext,
    ): Promise<schedulingV1.ListAppointmentsResponse> {
      const actor = requirePermission(context, 'appointments:read');
      // The API's filters (libs/contracts), as the gateway checked them; '' is an absent filter.
      const filters = parseInput(appointmentsApi.appointmentFilters, {
        locationId: given(request.locationId),
        resourceId: given(request.resourceId),
        studentId: given(request.studentId),
        status: given(request.status),
        from: given(request.from),
        to: given(request.to),
      });
      const from = filters.from === undefined ? undefined : parseInstant(filters.from);
      const to = filters.to === undefined ? undefined : parseInstant(filters.to);
      const scope = await scopeOf(sequelize, actor);
      const query = { ...request, cursor: undefined, limit: undefined };
      const page = await keysetPage({
        cursors,
        cursor: request.cursor,
        query,
        limit: pageSize(request.limit, SCHEDULING_LIMITS.page),
        isPosition: isStartAndId,
        positionOf: (row: AppointmentRow): [number, string] => [row.start_ms, row.id],
        fetch: (after, limit) => {
      const where: string[] = [];
      const bind: unknown[] = [];
      const add = (value: unknown) => `$${bind.push(value)}`;
      const reached = scopeCondition(scope, add);
      if (reached) where.push(reached);
      if (request.studentId && scope.kind !== 'own') where.push(`a.student_id = ${add(request.studentId.toLowerCase())}`);
      if (request.resourceId) where.push(`a.resource_id = ${add(request.resourceId)}`);
      if (request.locationId) where.push(`a.location_id = ${add(request.locationId)}`);
      if (request.status) where.push(`a.status = ${add(request.status)}`);
      if (from !== undefined) where.push(`lower(a.span) >= to_timestamp(${add(from)}::float8 / 1000)`);
      if (to !== undefined) where.push(`lower(a.span) < to_timestamp(${add(to)}::float8 / 1000)`);
      if (after) where.push(`(lower(a.span), a.id) > (to_timestamp(${add(after[0])}::float8 / 1000), ${add(after[1])}::uuid)`);
      return sequelize.query<AppointmentRow>(
        `SELECT ${APPOINTMENT_COLUMNS} FROM appointments a ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
          ORDER BY lower(a.span), a.id LIMIT ${add(limit)}`,
        { bind, type: QueryTypes.SELECT },
      );
        },
      });
      return { appointments: page.rows.map(toAppointment), nextCursor: page.nextCursor };
    },
  };
}
