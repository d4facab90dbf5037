import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The parts of V8's .cpuprofile (what `node --cpu-prof` writes) that a summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }[];
  /** µs on the monotonic clock (CLOCK_MONOTONIC, as process.hrtime). */
  startTime: number;
  samples: number[];
  /** µs between one sample and the one before it. */
  timeDeltas: number[];
}

export interface ProfileEntry {
  name: string;
  /** The share of the process's CPU per request (from /proc) that this entry's share of the samples stands for. */
  usPerRequest: number;
  /** Of the main thread's busy (non-idle) samples in the window. */
  share: number;
}

export interface ProfileSummary {
  /** The main thread's busy (non-idle) samples inside the window: how much the shares rest on. */
  samples: number;
  /** Self time by function, the largest first. */
  functions: ProfileEntry[];
  /** Self time by where the code lives: a package, a source file of the repository, a Node module, or V8's own. */
  places: ProfileEntry[];
  /**
   * Self time by package or source file of the repository, with the time in Node's own modules and in native code
   * charged to the innermost package or file that called into them: a socket write made for grpc-js counts for
   * grpc-js, one made for an HTTP answer for the code that sent it. V8's own entries (garbage collector,
   * program) stay as they are.
   */
  charged: ProfileEntry[];
}

const IDLE = '(idle)';

/** Where a function is defined, as a reader looks for it: a source file (through the bundle's source map), a package, or Node's module. */
export class Locator {
  private readonly maps = new Map<string, SourceMap | undefined>();

  constructor(private readonly root: string) {}

  /** `place`: what the self time is grouped by; `where`: file and line, for the function's own entry. */
  locate(url: string, line: number, column: number): { place: string; where: string } {
    if (url === '') return { place: '(V8 and native)', where: '' };
    if (url.startsWith('node:')) return { place: url, where: `${url}:${line + 1}` };
    const path = url.startsWith('file://') ? fileURLToPath(url) : url;
    const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
    if (inPackage) return { place: inPackage[1], where: `${inPackage[1]}/${inPackage[2]}:${line + 1}` };
    const entry = this.sourceMap(path)?.findEntry(line, column);
    if (entry && 'originalSource' in entry && entry.originalSource) {
      const source = entry.originalSource.startsWith('file://') ? fileURLToPath(entry.originalSource) : entry.originalSource;
      const file = relative(this.root, new URL(source, `file://${path}`).pathname);
      return { place: file, where: `${file}:${entry.originalLine + 1}` };
    }
    const file = relative(this.root, path);
    return { place: file, where: `${file}:${line + 1}` };
  }

  private sourceMap(path: string): SourceMap | undefined {
    if (!this.maps.has(path)) {
      const mapFile = `${path}.map`;
      this.maps.set(path, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))) : undefined);
    }
    return this.maps.get(path);
  }
}

function top(counts: Map<string, number>, busy: number, cpuUsPerRequest: number, count: number): ProfileEntry[] {
  return [...counts.entries()]
    .sort(([, a], [, b]) => b - a)
    .slice(0, count)
    .map(([name, samples]) => ({ name, share: samples / busy, usPerRequest: (samples / busy) * cpuUsPerRequest }));
}

/**
 * The self time of every function sampled inside [startUs, endUs], as shares
 * of the main thread's busy (non-idle) samples, each also turned into µs of
 * the process's measured CPU per request. Shares come from counts of samples,
 * not from the time between them: on a loaded machine the sampling thread
 * waits for a core too, so the gaps say how long nothing was sampled, not
 * how long a function ran.
 */
export function summariseProfile(
  profile: CpuProfile,
  window: { startUs: number; endUs: number },
  cpuUsPerRequest: number,
  locator: Locator,
  count = 12,
): ProfileSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const labels = new Map<number, { fn: string; place: string }>();
  const labelOf = (id: number) => {
    let label = labels.get(id);
    const frame = frames.get(id);
    if (!label && frame) {
      const { place, where } = locator.locate(frame.url, frame.lineNumber, frame.columnNumber);
      const name = frame.functionName || '(anonymous)';
      label = { fn: where ? `${name} (${where})` : name, place: frame.url === '' ? name : place };
      labels.set(id, label);
    }
    return label ?? { fn: '(unknown)', place: '(unknown)' };
  };
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const isNodeOrNative = (id: number) => {
    const frame = frames.get(id);
    return frame !== undefined && (frame.url === '' || frame.url.startsWith('node:')) && !frame.functionName.startsWith('(');
  };
  /**
   * The innermost package or repository file on the stack, for time spent in Node's modules or native code; with
   * none (Node's own work: reading sockets, parsing HTTP, timers), the innermost Node module, named as such.
   */
  const chargedPlace = (id: number) => {
    let nodeModule: string | undefined;
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      if (!isNodeOrNative(at)) {
        if (frames.get(at)?.functionName !== '(root)') return labelOf(at).place;
        break;
      }
      const url = frames.get(at)?.url ?? '';
      if (!nodeModule && url !== '') nodeModule = url;
    }
    return nodeModule ? `${nodeModule} (no package on the stack)` : labelOf(id).place;
  };
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  const charged = new Map<string, number>();
  let busy = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i];
    if (time < window.startUs || time >= window.endUs) continue;
    const { fn, place } = labelOf(profile.samples[i]);
    if (fn === IDLE) continue;
    busy += 1;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + 1);
    byPlace.set(place, (byPlace.get(place) ?? 0) + 1);
    const payer = chargedPlace(profile.samples[i]);
    charged.set(payer, (charged.get(payer) ?? 0) + 1);
  }
  return {
    samples: busy,
    functions: top(byFunction, busy, cpuUsPerRequest, count),
    places: top(byPlace, busy, cpuUsPerRequest, count),
    charged: top(charged, busy, cpuUsPerRequest, count),
  };
}
