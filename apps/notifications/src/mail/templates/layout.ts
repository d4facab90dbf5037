/**
 * A message's content as blocks, rendered once as plain text and once as HTML, so the two parts always say the same.
 * Every value from outside (a note, a name, a URL) is escaped in the HTML; in the text it is written as it is.
 */
export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'link'; label: string; url: string }
  | { kind: 'facts'; rows: ReadonlyArray<readonly [label: string, value: string]> };

export interface MessageContent {
  subject: string;
  blocks: readonly Block[];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML character data or a quoted attribute value. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] as string);

/**
 * Text fit for one header line: every control character, and the Unicode line and paragraph separators, become a
 * space, so no value from a client can end the header and start another (header injection).
 */
// eslint-disable-next-line no-control-regex
export const headerText = (text: string, max = 200): string => text.replace(/[\u0000-\u001f\u007f\u0085\u2028\u2029]/g, ' ').slice(0, max);

function textOf(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return block.text;
    case 'link':
      return `${block.label}:\n${block.url}`;
    case 'facts':
      return block.rows.map(([label, value]) => `${label}: ${value}`).join('\n');
  }
}

function htmlOf(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p>${escapeHtml(block.text).replace(/\r?\n/g, '<br>')}</p>`;
    case 'link':
      return `<p><a href="${escapeHtml(block.url)}">${escapeHtml(block.label)}</a></p>`;
    case 'facts':
      return `<table>${block.rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>`;
  }
}

/** The text and HTML parts of one message, and its subject fit for the header. */
export function renderContent(content: MessageContent, footer: readonly Block[]): { subject: string; text: string; html: string } {
  const blocks = [...content.blocks, ...footer];
  const subject = headerText(content.subject);
  return {
    subject,
    text: `${blocks.map(textOf).join('\n\n')}\n`,
    html: `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head><body>${blocks.map(htmlOf).join('')}</body></html>`,
  };
}
