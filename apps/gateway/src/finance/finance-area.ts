import type { GatewayConfig } from '../config';
import { areaOf, declaredIn } from '../platform/routing/area';
import type { Upstreams } from '../platform/upstreams/upstreams';
import * as documents from './document-operations';
import { documentRoutes } from './document-routes';
import * as files from './file-operations';
import { fileRoutes } from './file-routes';
import * as payments from './payment-operations';
import { paymentRoutes } from './payment-routes';
import * as records from './record-operations';
import { recordRoutes } from './record-routes';
import * as transactions from './transaction-operations';
import { transactionRoutes } from './transaction-routes';

/** What finance documents take from the configuration. */
const documentSettings = (config: Pick<GatewayConfig, 'INSTITUTION_NAME'>) => ({ institution: config.INSTITUTION_NAME });

/** Student transactions, proofs of payment, the finance records and their documents (docs/FINANCE.md). */
export const financeArea = areaOf<{ upstreams: Upstreams; config: Pick<GatewayConfig, 'INSTITUTION_NAME' | 'HTTP_REQUEST_TIMEOUT_MS'> }>(
  // All under /api/v1/transactions (and the uploads a payment names): listed together, by name.
  declaredIn({ ...transactions, ...payments, ...documents, ...files }, ({ upstreams, config }) => [
    ...transactionRoutes(upstreams),
    ...paymentRoutes(upstreams),
    ...documentRoutes(upstreams, documentSettings(config)),
    ...fileRoutes(upstreams, { requestTimeoutMs: config.HTTP_REQUEST_TIMEOUT_MS }),
  ]),
  declaredIn(records, ({ upstreams, config }) => recordRoutes(upstreams, documentSettings(config))),
);
