import { areaOf, declaredIn, type Area } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './mail-preferences-operations';
import { mailPreferenceRoutes } from './mail-preferences-routes';

/** Mail preferences and one-click unsubscribe (docs/NOTIFICATIONS.md). */
export const mailPreferencesArea: Area<{ upstreams: Upstreams }> = areaOf<{ upstreams: Upstreams }>(declaredIn(op, ({ upstreams }) => mailPreferenceRoutes(upstreams)));
