const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/**
 * Misspells a name the way people do, by Meilisearch's typo-tolerance rule:
 * one typo under 9 letters, two from 9 on. Each typo swaps two neighbours,
 * drops, doubles or mistypes a letter.
 */
export function misspell(name: string, random: () => number): string {
  let text = name;
  const typos = name.replace(/[^a-z]/gi, '').length >= 9 ? 2 : 1;
  for (let i = 0; i < typos; i++) {
    const letters = [...text].flatMap((c, at) => (/[a-z]/i.test(c) ? [at] : []));
    if (letters.length < 2) break;
    const at = letters[Math.floor(random() * letters.length)];
    const kind = Math.floor(random() * 4);
    if (kind === 0 && at + 1 < text.length) text = text.slice(0, at) + text[at + 1] + text[at] + text.slice(at + 2);
    else if (kind === 1) text = text.slice(0, at) + text.slice(at + 1);
    else if (kind === 2) text = text.slice(0, at) + text[at] + text.slice(at);
    else text = text.slice(0, at) + LETTERS[Math.floor(random() * LETTERS.length)] + text.slice(at + 1);
  }
  return text;
}
