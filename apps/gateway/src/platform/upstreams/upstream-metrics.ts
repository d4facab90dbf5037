import { Counter, Gauge, Histogram, labelledChildren, metricsRegistry } from '@libs/metrics';

const registers = [metricsRegistry()];

const upstreamDuration = new Histogram({
  name: 'upstream_request_duration_seconds',
  help: 'Time of a gateway call to an upstream service (retries included), by upstream and outcome (gRPC status or BREAKER_OPEN)',
  labelNames: ['upstream', 'outcome'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers,
});

/** The series of one upstream and outcome (bounded: a handful of upstreams, the gRPC status names and two of ours). */
const durationOf = labelledChildren(['upstream', 'outcome'], (labels) => upstreamDuration.labels(labels));

/** Starts timing one call to an upstream; the function returned records it with its outcome. */
export function timeUpstreamCall(upstream: string): (outcome: string) => void {
  const started = performance.now();
  return (outcome) => durationOf({ upstream, outcome }).observe((performance.now() - started) / 1000);
}

export const upstreamRetries = new Counter({
  name: 'upstream_retries_total',
  help: 'Repeated attempts of idempotent reads after a passing failure, by upstream',
  labelNames: ['upstream'],
  registers,
});

export const BREAKER_STATES = ['closed', 'half-open', 'open'] as const;
export type BreakerState = (typeof BREAKER_STATES)[number];

/**
 * One series per upstream and state; the current state is 1, the others 0. Once per process, by its main: the
 * gauge reads the breakers of the upstreams passed in, and nothing else keeps them.
 */
export function registerBreakerStates(upstreams: () => { name: string; state: BreakerState }[]): void {
  new Gauge({
    name: 'circuit_breaker_state',
    help: 'State of each upstream circuit breaker: 1 for the current state (closed, half-open or open), else 0',
    labelNames: ['upstream', 'state'],
    registers,
    collect() {
      for (const upstream of upstreams()) {
        for (const state of BREAKER_STATES) this.set({ upstream: upstream.name, state }, upstream.state === state ? 1 : 0);
      }
    },
  });
}
