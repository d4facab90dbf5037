import { status } from '@grpc/grpc-js';
import { Counter, Histogram, labelledChildren, metricsRegistry } from '@libs/metrics';
import type { RefusalReason } from './actor-token';

let histogram: Histogram<'method' | 'code'> | undefined;

/** Latency of every call a service handled, by method and outcome (gRPC status name, e.g. OK or NOT_FOUND). */
function handlingSeconds(): Histogram<'method' | 'code'> {
  histogram ??= new Histogram({
    name: 'grpc_server_handling_seconds',
    help: 'Time to handle a gRPC call, by method and gRPC status code',
    labelNames: ['method', 'code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metricsRegistry()],
  });
  return histogram;
}

const handlingOf = labelledChildren(['method', 'code'], (labels) => handlingSeconds().labels(labels));

export function observeHandledCall(method: string, code: status, seconds: number): void {
  handlingOf({ method, code: status[code] ?? String(code) }).observe(seconds);
}

let refusedActors: Counter<'reason'> | undefined;

/** An actor token a service refused (actor-token.ts), by why: replays toward another service or method among them. */
export function countRefusedActor(reason: RefusalReason): void {
  refusedActors ??= new Counter({
    name: 'grpc_actor_refused_total',
    help: 'Calls refused for their actor token, by reason (malformed, unknown-key, bad-signature, expired, audience, method)',
    labelNames: ['reason'],
    registers: [metricsRegistry()],
  });
  refusedActors.inc({ reason });
}
