import { declaredIn } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as op from './audit-operations';
import { auditRoutes } from './audit-routes';

/** The hash-chained audit log of every finance and scheduling change (docs/AUDIT.md). */
export const auditArea = declaredIn(op, ({ upstreams }: { upstreams: Upstreams }) => auditRoutes(upstreams));
