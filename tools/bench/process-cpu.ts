import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** The CPU time (user + system) a live process has used so far, in seconds, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis are plain.
  const line = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = line.slice(line.lastIndexOf(') ') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the line (proc(5)), so the 12th and 13th after the command name.
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}
