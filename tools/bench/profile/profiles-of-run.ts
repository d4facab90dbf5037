import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Measurement } from '../context';
import { Locator, summariseProfile, type CpuProfile, type ProfileSummary } from './cpu-profile';

export interface MeasuredProfile {
  scenario: string;
  target: string;
  service: string;
  /** The same process's CPU per request from /proc, beside the profile's sampled main-thread time. */
  procCpuMsPerRequest: number;
  summary: ProfileSummary;
}

/** A service below this CPU per request in a run took no real part in it, and its profile there is noise. */
const MIN_CPU_MS_PER_REQUEST = 0.05;
/** Fewer busy samples than this (1 ms apart) make shares that mean nothing. */
const MIN_SAMPLES = 100;

/**
 * Cuts each service's CPU profile (written by `--cpu-prof` into `dir` as
 * CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile when it exited) to every
 * measured window the service worked in, and summarises what took its time
 * there, per request.
 */
export function profilesOfRun(
  dir: string,
  root: string,
  services: { name: string; pid: number }[],
  measurements: Measurement[],
): MeasuredProfile[] {
  const files = readdirSync(dir);
  const locator = new Locator(root);
  return services.flatMap(({ name, pid }) => {
    const file = files.find((candidate) => candidate.endsWith('.cpuprofile') && candidate.split('.')[3] === String(pid) && candidate.split('.')[4] === '0');
    if (!file) return [];
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    return measurements.flatMap(({ scenario, target, result, cpuMsPerRequest }) => {
      const procCpuMsPerRequest = cpuMsPerRequest?.[name] ?? 0;
      if (!result.cpu || procCpuMsPerRequest < MIN_CPU_MS_PER_REQUEST) return [];
      const summary = summariseProfile(profile, result.cpu, procCpuMsPerRequest * 1000, locator);
      return summary.samples < MIN_SAMPLES ? [] : [{ scenario, target, service: name, procCpuMsPerRequest, summary }];
    });
  });
}
