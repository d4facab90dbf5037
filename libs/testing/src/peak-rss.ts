import { readFileSync } from 'node:fs';

/** The peak resident set size (VmHWM) the kernel recorded for a live process, in MB: its worst, not one sample. */
export function peakRssMb(pid: number): number {
  const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (!kb) throw new Error(`no VmHWM for process ${pid}`);
  return Number(kb) / 1024;
}
