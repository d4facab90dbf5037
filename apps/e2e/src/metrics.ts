/** Reads a Prometheus text exposition the way a scraper does, for assertions on what operators see. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^(?<name>[a-zA-Z_:][\w:]*)(?:\{(?<labels>.*)\})? (?<value>\S+)/;
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g;

export function parseMetrics(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .flatMap((line) => {
      const match = SAMPLE.exec(line)?.groups;
      if (!match) return [];
      const labels = Object.fromEntries([...(match.labels ?? '').matchAll(LABEL)].map(([, key, value]) => [key, value]));
      return [{ name: match.name, labels, value: Number(match.value) }];
    });
}

export async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseMetrics(await response.text());
}

/** The samples named `name` whose labels include all of `labels`. */
export const samples = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value));

/** The sum of the matching samples' values (0 when none match). */
export const total = (all: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples(all, name, labels).reduce((sum, s) => sum + s.value, 0);
