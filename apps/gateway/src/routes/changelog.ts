import { Router } from 'express';
import type { Release } from '../changelog/parse-changelog';

/** GET /api/v1/changelog (public): CHANGELOG.md as JSON, parsed once at start. */
export function changelogRoutes(releases: Release[]): Router {
  const router = Router();
  router.get('/api/v1/changelog', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json({ releases });
  });
  return router;
}
