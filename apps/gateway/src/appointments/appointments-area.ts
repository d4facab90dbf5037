import { areaOf, declaredIn } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as moves from './appointment-move-operations';
import { appointmentMoveRoutes } from './appointment-move-routes';
import * as appointments from './appointment-operations';
import { appointmentRoutes } from './appointment-routes';

/** Holds, bookings and their moves (docs/SCHEDULING.md). */
export const appointmentsArea = areaOf<{ upstreams: Upstreams }>(
  declaredIn(appointments, ({ upstreams }) => appointmentRoutes(upstreams)),
  declaredIn(moves, ({ upstreams }) => appointmentMoveRoutes(upstreams)),
);
