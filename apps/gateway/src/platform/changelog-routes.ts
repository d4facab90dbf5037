import type { Release } from './changelog/parse-changelog';
import { changelog } from './platform-operations';
import { route, type Route } from './routing/operation';

/** GET /api/v1/changelog (public): CHANGELOG.md as JSON, parsed once at start. */
export function changelogRoutes(releases: Release[]): Route[] {
  return [
    route(changelog, (_input, { res }) => {
      res.set('Cache-Control', 'public, max-age=300').json({ releases });
    }),
  ];
}
