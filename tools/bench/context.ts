import type { Baseline } from './baselines/start-baseline';
import type { CpuWindow } from './cpu/window';
import type { LoadResult, RequestSpec } from './load/load-spec';
import type { Role } from '@libs/contracts';
import type { GrpcServiceName, ServiceName } from '@libs/topology';

export type { Role };

/** One load run: what was driven, and what it measured. */
export interface Measurement {
  scenario: string;
  /** `system` (through the gateway), or the baseline it ran against. */
  target: string;
  result: LoadResult;
  /** CPU ms per answered request inside the measured window, by process (from `result.cpu`); set by record(). */
  cpuMsPerRequest?: Record<string, number>;
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
  /** Seconds of load before each measured window of a run by duration (not one by amount or at a set rate). */
  warmup: number;
  gatewayUrl: string;
  keys: Record<Role, string>;
  databaseUrl(service: ServiceName): string;
  /** Where a gRPC service listens (host:port), for a scenario that sets up through a service's own API. */
  grpcAddress(service: GrpcServiceName): string;
  /** Starts measuring every process's CPU, for work that is not one load run (deliveries after their commits). */
  cpuWindow(): { stop(): CpuWindow };
  expressPg: Baseline;
  bareHttp: Baseline;
  /** Deterministic randomness, so two runs send the same queries. */
  random(): number;
  /**
   * Drives `url` with the requests (round-robin) for `duration` seconds (unless told otherwise), or `amount`
   * requests, after the warm-up, and measures every process's CPU over that window.
   */
  load(
    url: string,
    requests: RequestSpec[],
    options?: { connections?: number; amount?: number; expected?: number[]; rate?: number; duration?: number; warmup?: number; timeout?: number },
  ): Promise<LoadResult>;
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
