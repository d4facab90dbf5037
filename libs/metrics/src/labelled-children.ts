/**
 * A metric's child for each set of label values, made once and kept: asked
 * for with a label object on every observation, prom-client validates and
 * hashes the labels to find the child, makes its closures, and then hashes
 * them again to observe; a kept child skips the first half. Only for labels
 * of a few, bounded values (methods, route templates, status names,
 * upstreams): every set ever seen stays.
 */
export function labelledChildren<L extends string, C>(
  labelNames: readonly L[],
  childOf: (labels: Record<L, string>) => C,
): (labels: Record<L, string>) => C {
  const children = new Map<string, C>();
  return (labels) => {
    let key = '';
    for (const name of labelNames) key += `${labels[name]}\u0000`;
    let child = children.get(key);
    if (child === undefined) {
      child = childOf(labels);
      children.set(key, child);
    }
    return child;
  };
}
