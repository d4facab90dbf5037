// Reads a PDF on stdin and prints its text as rows, with pdfjs-dist, in a process of its own: pdfjs-dist is an ES
// module only, which jest's CommonJS runtime cannot load. Each row is the text items of one baseline on one page,
// left to right: [{ page, texts: [...] }].
// pdfjs-dist 6 calls Promise.withResolvers, which Node 22 has and Node 20 lacks: the same thing, written out.
Promise.withResolvers ??= function withResolvers() {
  let resolve, reject;
  const promise = new this((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
};
const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const pdf = await getDocument({ data: new Uint8Array(Buffer.concat(chunks)), verbosity: 0 }).promise;
const rows = [];
for (let number = 1; number <= pdf.numPages; number++) {
  const page = await pdf.getPage(number);
  const byBaseline = new Map();
  for (const item of (await page.getTextContent()).items) {
    if (!item.str.trim()) continue;
    const y = Math.round(item.transform[5]);
    byBaseline.set(y, [...(byBaseline.get(y) ?? []), { x: item.transform[4], str: item.str }]);
  }
  for (const y of [...byBaseline.keys()].sort((a, b) => b - a)) {
    rows.push({ page: number, texts: byBaseline.get(y).sort((a, b) => a.x - b.x).map((item) => item.str) });
  }
}
process.stdout.write(JSON.stringify({ pages: pdf.numPages, rows }));
