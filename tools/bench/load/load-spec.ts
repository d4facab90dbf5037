import type { CpuWatchSpec, CpuWindow } from '../cpu/window';

/** One HTTP request of a load run. */
export interface RequestSpec {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** What the load worker runs: the requests are sent round-robin across all connections. */
export interface LoadSpec {
  url: string;
  requests: RequestSpec[];
  connections: number;
  /** Seconds; ignored when `amount` is set. */
  duration: number;
  /** A fixed number of requests instead of a duration. */
  amount?: number;
  /** Requests per second across all connections, for a client that paces itself; unset: as fast as answers come. */
  rate?: number;
  /** Statuses outside 2xx/304 that are a right answer here, e.g. 404 for a search that matches nothing. */
  expected?: number[];
  /** Seconds a request may take before it counts as a timeout (autocannon's 10 unless set): a long export takes more. */
  timeout?: number;
  /** Seconds of the same load before the measured window, whose figures are thrown away (JIT, pools, caches). */
  warmup?: number;
  /** The processes whose CPU to measure over the window. */
  cpu?: CpuWatchSpec;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Socket errors, timeouts and responses outside 2xx/304 and the expected statuses. */
  errors: number;
  statusCodes: Record<string, number>;
  /**
   * The requests that got no answer, by why: the socket error's code (`ECONNRESET`, `EPIPE`, …) or `timeout` (no
   * answer within `timeout`). With `statusCodes`, every error has a cause on record.
   */
  noAnswer?: Record<string, number>;
  /** The CPU each watched process used inside the measured window. */
  cpu?: CpuWindow;
}

/** Every outcome of a run, answers and failures to answer alike: `201 ×185, ECONNRESET ×15`. */
export function describeOutcomes(result: Pick<LoadResult, 'statusCodes' | 'noAnswer'>): string {
  const outcomes = [...Object.entries(result.statusCodes), ...Object.entries(result.noAnswer ?? {})];
  return outcomes.map(([outcome, count]) => `${outcome} ×${count}`).join(', ') || 'none';
}
