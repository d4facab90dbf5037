import { SERVICE_NAMES } from '@libs/topology';
import type { Verdict } from '../context';
import type { LoadResult } from '../load/load-spec';
import { LOAD_GENERATOR, POSTGRES_BACKGROUND, type CpuWindow } from './window';

/** CPU ms per answered request, by process, over one measured window. */
export function cpuPerRequest(window: CpuWindow, requests: number): Record<string, number> {
  return Object.fromEntries(Object.entries(window.ms).map(([name, ms]) => [name, requests > 0 ? ms / requests : 0]));
}

const isPostgresBackend = (name: string) => name.startsWith('PostgreSQL ') && name !== POSTGRES_BACKGROUND;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * The columns of the report's CPU table: one per process, PostgreSQL's
 * backends of the run's databases summed (the JSON keeps them by database),
 * and a total of everything the request made work, which leaves out the load
 * generator (shown last: it shares the cores).
 */
export const CPU_COLUMNS: { title: string; of(perRequest: Record<string, number>): number }[] = [
  ...SERVICE_NAMES.map((name) => ({ title: name, of: (p: Record<string, number>) => p[name] ?? 0 })),
  { title: "PostgreSQL backends (run's databases)", of: (p) => sum(Object.keys(p).filter(isPostgresBackend).map((name) => p[name])) },
  { title: 'PostgreSQL background (shared)', of: (p) => p[POSTGRES_BACKGROUND] ?? 0 },
  ...['RabbitMQ', 'express+pg', 'node:http'].map((name) => ({ title: name, of: (p: Record<string, number>) => p[name] ?? 0 })),
  { title: 'total', of: (p) => sum(Object.entries(p).filter(([name]) => name !== LOAD_GENERATOR).map(([, ms]) => ms)) },
  { title: LOAD_GENERATOR, of: (p) => p[LOAD_GENERATOR] ?? 0 },
];

/** One line for the console: the processes that did any work, the busiest first. */
export function describeCpu(perRequest: Record<string, number>): string {
  return Object.entries(perRequest)
    .filter(([, ms]) => ms >= 0.0005)
    .sort(([, a], [, b]) => b - a)
    .map(([name, ms]) => `${name} ${ms.toFixed(3)}`)
    .join(', ');
}

/**
 * Judges one process's CPU per request in a measured run against a ceiling (the performance targets: the
 * gateway's share of a forwarded GET, the reference's of a search). A run without CPU figures is not met.
 */
export function cpuVerdict(scenario: string, result: LoadResult, process: string, ceilingMs: number): Verdict {
  const ms = result.cpu ? cpuPerRequest(result.cpu, result.requests)[process] : undefined;
  return {
    scenario,
    figure: ms === undefined ? `${process} CPU not measured` : `${process} ${ms.toFixed(3)} ms CPU per request`,
    target: `${process} ≤ ${ceilingMs} ms CPU per request`,
    met: ms !== undefined && ms <= ceilingMs,
  };
}
