const UNITS: Record<string, number> = { '': 1 / 2 ** 20, Ki: 1 / 1024, Mi: 1, Gi: 1024, k: 1e3 / 2 ** 20, M: 1e6 / 2 ** 20, G: 1e9 / 2 ** 20 };

/** A Kubernetes memory quantity (`192Mi`, `1Gi`, `200M`, bytes) in MiB. */
export function mebibytes(quantity: string | number | undefined): number {
  const [, amount, unit] = /^(\d+(?:\.\d+)?)([KMG]i|[kMG])?$/.exec(String(quantity)) ?? [];
  if (amount === undefined) throw new Error(`not a memory quantity: ${JSON.stringify(quantity)}`);
  return Number(amount) * UNITS[unit ?? ''];
}
