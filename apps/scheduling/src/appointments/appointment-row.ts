import type { schedulingV1 } from '@libs/contracts';
import { formatInstant } from '../time/zoned-time';
import { FHIR_STATUS, type Status } from './appointment-states';
import type { Policy } from './policy';

/** An appointments row as APPOINTMENT_COLUMNS selects it: times as epoch ms, and the database's clock. */
export interface AppointmentRow {
  id: string;
  status: Status;
  location_id: string;
  resource_id: string;
  service_id: string;
  student_id: string;
  start_ms: number;
  end_ms: number;
  time_zone: string;
  hold_expires_at: Date | null;
  hold_expired: boolean;
  policy: Policy;
  version: number;
  sequence: number;
  booked_by: string;
  cancel_reason_code: string | null;
  cancel_reason_text: string | null;
  cancelled_by: string | null;
  cancelled_by_role: string | null;
  cancelled_late: boolean | null;
  cancelled_at: Date | null;
  checked_in_at: Date | null;
  completed_at: Date | null;
  no_show_at: Date | null;
  error_reason: string | null;
  created_at: Date;
  updated_at: Date;
  db_now: number;
}

const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

export const APPOINTMENT_COLUMNS = `a.id::text, a.status, a.location_id, a.resource_id::text, a.service_id::text, a.student_id,
  ${epochMs('lower(a.span)')} AS start_ms, ${epochMs('upper(a.span)')} AS end_ms, a.time_zone, a.hold_expires_at,
  coalesce(a.hold_expires_at <= now(), false) AS hold_expired, a.policy, a.version, a.sequence, a.booked_by,
  a.cancel_reason_code, a.cancel_reason_text, a.cancelled_by, a.cancelled_by_role, a.cancelled_late, a.cancelled_at,
  a.checked_in_at, a.completed_at, a.no_show_at, a.error_reason, a.created_at, a.updated_at, ${epochMs('now()')} AS db_now`;

/** A range of instants (epoch ms) as SQL, for bound parameters $from and $to. */
export const instantRange = (from: string, to: string) => `tstzrange(to_timestamp(${from}::float8 / 1000), to_timestamp(${to}::float8 / 1000))`;

export function toAppointment(row: AppointmentRow): schedulingV1.Appointment {
  const zone = row.time_zone;
  const at = (date: Date | null) => (date ? formatInstant(date.getTime(), zone) : '');
  return {
    id: row.id,
    status: row.status,
    fhirStatus: FHIR_STATUS[row.status],
    locationId: row.location_id,
    resourceId: row.resource_id,
    serviceId: row.service_id,
    studentId: row.student_id,
    start: formatInstant(row.start_ms, zone),
    end: formatInstant(row.end_ms, zone),
    timeZone: zone,
    holdExpiresAt: at(row.hold_expires_at),
    version: row.version,
    sequence: row.sequence,
    policy: row.policy,
    bookedBy: row.booked_by,
    cancellation: row.cancel_reason_code
      ? {
          reasonCode: row.cancel_reason_code,
          reasonText: row.cancel_reason_text ?? '',
          cancelledBy: row.cancelled_by ?? '',
          cancelledByRole: row.cancelled_by_role ?? '',
          late: row.cancelled_late ?? false,
          cancelledAt: at(row.cancelled_at),
        }
      : undefined,
    checkedInAt: at(row.checked_in_at),
    completedAt: at(row.completed_at),
    noShowAt: at(row.no_show_at),
    errorReason: row.error_reason ?? '',
    createdAt: at(row.created_at),
    updatedAt: at(row.updated_at),
  };
}
