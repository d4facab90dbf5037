import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { Router } from 'express';
import { staticRoute } from '../observability/http-metrics';
import { htmlPageHeaders } from './security-headers';

// Built: dist/apps/gateway/dashboard (copied as a build asset). From source (tests): apps/gateway/dashboard.
const DASHBOARD_DIR = [join(__dirname, 'dashboard'), resolve(__dirname, '../../dashboard')].find((dir) => existsSync(dir));

/** No inline script or style and nothing from other origins: the page's own files talk to this gateway only. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
];

/** The API management dashboard: static HTML, CSS and JS at /dashboard. */
export function dashboard(): Router {
  const router = Router();
  router.use('/dashboard', staticRoute('/dashboard/*'), htmlPageHeaders(CONTENT_SECURITY_POLICY), (_req, res, next) => {
    res.setHeader('Referrer-Policy', 'no-referrer');
    res.setHeader('Cache-Control', 'no-cache');
    next();
  });
  if (DASHBOARD_DIR) router.use('/dashboard', express.static(DASHBOARD_DIR, { index: 'index.html', dotfiles: 'ignore' }));
  return router;
}
