import type { Baseline } from './baselines/start-baseline';
import type { LoadResult, RequestSpec } from './load/load-spec';
import type { Role } from '@libs/contracts';

export type { Role };

/** One load run: what was driven, and what it measured. */
export interface Measurement {
  scenario: string;
  /** `system` (through the gateway), or the baseline it ran against. */
  target: string;
  result: LoadResult;
}

/** A target from the benchmark issue, checked against this run's figures. */
export interface Verdict {
  scenario: string;
  figure: string;
  target: string;
  met: boolean;
}

export interface BenchContext {
  smoke: boolean;
  /** Seconds per load run. */
  duration: number;
  /** Connections for the read scenarios (32 in a full run). */
  connections: number;
  gatewayUrl: string;
  keys: Record<Role, string>;
  databaseUrl(service: 'reference' | 'finance' | 'audit'): string;
  expressPg: Baseline;
  bareHttp: Baseline;
  /** Deterministic randomness, so two runs send the same queries. */
  random(): number;
  /** Drives `url` with the requests (round-robin) for `duration` seconds (unless told otherwise), or `amount` requests. */
  load(
    url: string,
    requests: RequestSpec[],
    options?: { connections?: number; amount?: number; expected?: number[]; rate?: number; duration?: number },
  ): Promise<LoadResult>;
  /** The process id of a service of the system under test (for its CPU time). */
  pid(service: 'gateway' | 'reference' | 'finance' | 'audit'): number;
  /** Where the gateway serves its Prometheus metrics. */
  gatewayMetricsUrl: string;
  record(measurement: Measurement): LoadResult;
  judge(verdict: Verdict): void;
  /** Extra figures that are not load runs (audit lag, walk sizes). */
  note(name: string, value: number, unit: string): void;
}

export type Scenario = (context: BenchContext) => Promise<void>;

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/**
 * Asks the gateway for a fresh answer, past its reference cache: what a
 * scenario sends to measure the path itself. Only the Zipf mix, whose
 * repeats are the point, leaves it out.
 */
export const uncached = (key: string) => ({ ...bearer(key), 'cache-control': 'no-cache' });
