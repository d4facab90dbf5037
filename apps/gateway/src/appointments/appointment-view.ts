import { toAppointmentJson, type schedulingV1 } from '@libs/contracts';
import type { Caller } from '../platform/routing/access';
import { seesStaff } from '../scheduling/staff-view';
import { toHistoryJson } from './schemas';

/**
 * A staff user id is shown to staff, and to anyone else only where it is their own: a student learns that a
 * clinician or an admin acted (the role stays), not which account did
 * (docs/decisions/0018-what-each-role-sees-of-scheduling.md).
 */
function idShownTo(caller: Caller): (id: string) => string | null {
  if (seesStaff(caller)) return (id) => id;
  const own = caller.key?.userId;
  return (id) => (id === own ? id : null);
}

/** An appointment's JSON as `caller` may see it. */
export function appointmentJsonFor(caller: Caller) {
  const shown = idShownTo(caller);
  return (appointment: schedulingV1.Appointment) => {
    const json = toAppointmentJson(appointment);
    return {
      ...json,
      bookedBy: shown(json.bookedBy),
      cancellation: json.cancellation && { ...json.cancellation, cancelledBy: shown(json.cancellation.cancelledBy) },
    };
  };
}

/** An appointment's history entry as `caller` may see it. */
export function historyJsonFor(caller: Caller) {
  const shown = idShownTo(caller);
  return (entry: schedulingV1.HistoryEntry) => {
    const json = toHistoryJson(entry);
    return { ...json, actorId: shown(entry.actorId) };
  };
}
