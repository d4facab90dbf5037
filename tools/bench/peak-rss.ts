import { writeFileSync } from 'node:fs';
import { peakRssMb } from '@libs/testing';

/**
 * Peaks by phase of a run (the data load, then each scenario): the kernel's
 * peak is reset at each phase's start (`5` to /proc/<pid>/clear_refs, Linux
 * 4.0 and later), so that a peak names the scenario that reached it. The
 * run's peak of a process is the highest of its phases'.
 */
export class PhasePeaks {
  readonly byPhase: Record<string, Record<string, number>> = {};

  constructor(private readonly processes: () => { name: string; pid: number }[]) {}

  /** Starts a phase: from now on each process's peak is this phase's. */
  start(): void {
    for (const { pid } of this.processes()) writeFileSync(`/proc/${pid}/clear_refs`, '5');
  }

  /** Ends a phase under its name, with each process's peak during it. */
  end(phase: string): void {
    this.byPhase[phase] = Object.fromEntries(this.processes().map(({ name, pid }) => [name, peakRssMb(pid)]));
  }

  /** Each process's highest peak over the phases. */
  peaks(): Record<string, number> {
    const peaks: Record<string, number> = {};
    for (const phase of Object.values(this.byPhase)) {
      for (const [name, mb] of Object.entries(phase)) peaks[name] = Math.max(peaks[name] ?? 0, mb);
    }
    return peaks;
  }
}
