import { readFileSync } from 'node:fs';
import { Router } from 'express';
import { parseChangelog } from '../changelog/parse-changelog';

/**
 * GET /api/v1/changelog (public): CHANGELOG.md as JSON. The file is read and
 * parsed once, at start, so a malformed changelog stops the gateway at once.
 */
export function changelogRoutes(changelogPath: string): Router {
  const releases = parseChangelog(readFileSync(changelogPath, 'utf8'));
  const router = Router();
  router.get('/api/v1/changelog', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json({ releases });
  });
  return router;
}
