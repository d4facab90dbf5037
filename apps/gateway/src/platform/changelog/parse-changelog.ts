/** One release of CHANGELOG.md (Keep a Changelog format), as GET /api/v1/changelog serves it. */
export interface Release {
  version: string;
  /** YYYY-MM-DD; null only for the Unreleased section. */
  date: string | null;
  /** Change type (Added, Changed, Deprecated, Removed, Fixed, Security) → the items listed under it. */
  changes: Record<string, string[]>;
}

/** The newest release with a date (the Unreleased section has none): its version is the API's. */
export const newestRelease = (releases: Release[]): Release | undefined => releases.find((release) => release.date !== null);

/** The API's version: the newest dated release's, or 0.0.0 before the first. */
export const apiVersion = (releases: Release[]): string => newestRelease(releases)?.version ?? '0.0.0';

const RELEASE_HEADING = /^## \[(?<version>[^\]]+)\](?: - (?<date>\d{4}-\d{2}-\d{2}))?\s*$/;
const SECTION_HEADING = /^### (?<type>Added|Changed|Deprecated|Removed|Fixed|Security)\s*$/;
const ITEM = /^- (?<text>.+)$/;
const CONTINUATION = /^\s{2,}(?<text>\S.*)$/;

export class ChangelogError extends Error {
  constructor(line: number, problem: string) {
    super(`CHANGELOG.md line ${line}: ${problem}`);
    this.name = 'ChangelogError';
  }
}

/**
 * Reads the changelog's releases, newest first as written. The file is the one
 * source of truth; anything it holds that this cannot place is an error, so a
 * malformed edit fails the build's tests instead of vanishing from the API.
 */
export function parseChangelog(markdown: string): Release[] {
  const releases: Release[] = [];
  let items: string[] | undefined;
  markdown.split(/\r?\n/).forEach((text, index) => {
    const line = index + 1;
    const release = RELEASE_HEADING.exec(text)?.groups;
    if (release) {
      if (!release.date && release.version !== 'Unreleased') throw new ChangelogError(line, `release ${release.version} has no date`);
      releases.push({ version: release.version, date: release.date ?? null, changes: {} });
      items = undefined;
      return;
    }
    const section = SECTION_HEADING.exec(text)?.groups;
    if (section) {
      const current = releases.at(-1);
      if (!current) throw new ChangelogError(line, `"${text}" comes before any release heading`);
      items = current.changes[section.type] ??= [];
      return;
    }
    const item = ITEM.exec(text)?.groups;
    if (item) {
      if (!items) throw new ChangelogError(line, 'a list item outside a "### Added/Changed/..." section');
      items.push(item.text.trim());
      return;
    }
    const continuation = CONTINUATION.exec(text)?.groups;
    if (continuation && items?.length) {
      items[items.length - 1] += ` ${continuation.text.trim()}`;
      return;
    }
    if (releases.length > 0 && text.trim() !== '' && !text.startsWith('[')) {
      throw new ChangelogError(line, `unexpected text "${text.slice(0, 60)}"`);
    }
  });
  if (releases.length === 0) throw new ChangelogError(1, 'no "## [version] - YYYY-MM-DD" release headings');
  return releases;
}
