import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ChangelogError, parseChangelog } from './parse-changelog';

describe('parseChangelog', () => {
  it('reads releases, dates, change types and wrapped items', () => {
    const releases = parseChangelog(
      [
        '# Changelog',
        '',
        'Intro text.',
        '',
        '## [Unreleased]',
        '',
        '## [1.1.0] - 2026-02-01',
        '### Added',
        '- One thing, described over',
        '  two lines.',
        '- Another.',
        '### Fixed',
        '- A bug.',
        '',
        '## [1.0.0] - 2026-01-01',
        '### Added',
        '- The start.',
        '',
        '[1.1.0]: https://example.org/compare/1.0.0...1.1.0',
      ].join('\n'),
    );
    expect(releases).toEqual([
      { version: 'Unreleased', date: null, changes: {} },
      {
        version: '1.1.0',
        date: '2026-02-01',
        changes: { Added: ['One thing, described over two lines.', 'Another.'], Fixed: ['A bug.'] },
      },
      { version: '1.0.0', date: '2026-01-01', changes: { Added: ['The start.'] } },
    ]);
  });

  it.each([
    ['a release without a date', '## [1.0.0]\n### Added\n- x', /line 1: release 1.0.0 has no date/],
    ['an item outside a section', '## [1.0.0] - 2026-01-01\n- x', /line 2: a list item outside/],
    ['an unknown change type', '## [1.0.0] - 2026-01-01\n### Improved\n- x', /line 2: unexpected text/],
    ['no releases at all', '# Changelog\n\nNothing yet.', /no "## \[version\]/],
  ])('rejects %s with the line at fault', (_what, markdown, message) => {
    expect(() => parseChangelog(markdown)).toThrow(ChangelogError);
    expect(() => parseChangelog(markdown)).toThrow(message);
  });

  it("parses the project's own CHANGELOG.md, with every release dated but an Unreleased one", () => {
    const releases = parseChangelog(readFileSync(resolve(__dirname, '../../../../../CHANGELOG.md'), 'utf8'));
    expect(releases.length).toBeGreaterThan(0);
    // Only an Unreleased section, first if present, goes without a date.
    const [first, ...rest] = releases;
    if (first.version !== 'Unreleased') rest.unshift(first);
    for (const release of rest) expect(release.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const everything = releases.flatMap((release) => Object.values(release.changes).flat()).join('\n');
    expect(everything).toMatch(/API key authentication/);
    expect(everything).toMatch(/HL7 FHIR/);
    expect(everything).toMatch(/Cursor pagination/);
    expect(everything).toMatch(/diseases, labs, premises, categories and dosages/);
  });
});
