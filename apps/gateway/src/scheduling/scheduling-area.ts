import { areaOf, declaredIn } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as blocks from './block-operations';
import { blockRoutes } from './block-routes';
import * as locations from './location-operations';
import { locationRoutes } from './location-routes';
import * as resources from './resource-operations';
import { resourceRoutes } from './resource-routes';
import * as schedules from './schedule-operations';
import { scheduleRoutes } from './schedule-routes';
import * as services from './service-operations';
import { serviceRoutes } from './service-routes';
import * as slots from './slot-operations';
import { slotRoutes } from './slot-routes';

/** /api/v1/scheduling/**: what may be booked, where, when, and the free slots (docs/SCHEDULING.md, "Endpoints"). */
export const schedulingArea = areaOf<{ upstreams: Upstreams }>(
  declaredIn(locations, ({ upstreams }) => locationRoutes(upstreams)),
  declaredIn(resources, ({ upstreams }) => resourceRoutes(upstreams)),
  declaredIn(services, ({ upstreams }) => serviceRoutes(upstreams)),
  declaredIn(schedules, ({ upstreams }) => scheduleRoutes(upstreams)),
  declaredIn(blocks, ({ upstreams }) => blockRoutes(upstreams)),
  declaredIn(slots, ({ upstreams }) => slotRoutes(upstreams)),
);
