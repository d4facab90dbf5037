import { areaOf, declaredIn } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as payments from './payment-operations';
import { paymentRoutes } from './payment-routes';
import * as records from './record-operations';
import { recordRoutes } from './record-routes';
import * as transactions from './transaction-operations';
import { transactionRoutes } from './transaction-routes';

/** Student transactions, proofs of payment and the finance records (docs/FINANCE.md). */
export const financeArea = areaOf<{ upstreams: Upstreams }>(
  // Both under /api/v1/transactions: listed together, by name.
  declaredIn({ ...transactions, ...payments }, ({ upstreams }) => [...transactionRoutes(upstreams), ...paymentRoutes(upstreams)]),
  declaredIn(records, ({ upstreams }) => recordRoutes(upstreams)),
);
