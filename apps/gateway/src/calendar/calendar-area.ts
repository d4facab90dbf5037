import type { Sequelize } from 'sequelize';
import { declaredIn } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './calendar-feed-operations';
import { calendarFeedRoutes } from './calendar-feed-routes';

/** Subscribable calendar feeds of appointments (docs/SCHEDULING.md, "Calendar feeds"). */
export const calendarArea = declaredIn(op, ({ sequelize, upstreams }: { sequelize: Sequelize; upstreams: Upstreams }) => calendarFeedRoutes(sequelize, upstreams));
