import type { Route } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { blockRoutes } from './block-routes';
import { locationRoutes } from './location-routes';
import { resourceRoutes } from './resource-routes';
import { scheduleRoutes } from './schedule-routes';
import { serviceRoutes } from './service-routes';
import { slotRoutes } from './slot-routes';

/** /api/v1/scheduling/** (docs/SCHEDULING.md, "Endpoints"). */
export const schedulingRoutes = (upstreams: Upstreams): Route[] =>
  [locationRoutes, resourceRoutes, serviceRoutes, scheduleRoutes, blockRoutes, slotRoutes].flatMap((area) => area(upstreams));
