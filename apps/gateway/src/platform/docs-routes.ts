import { createHash } from 'node:crypto';
import { dirname } from 'node:path';
import express, { Router } from 'express';
import { htmlPageHeaders } from './http/security-headers';
import { staticRoute } from './observability/http-metrics';
import type { OpenApiDocument } from './openapi/document';
import { apiDocs, openApiDocument } from './platform-operations';
import { route, type Route } from './routing/operation';

// The page loads only same-origin files: the renderer comes from the installed
// swagger-ui-dist package, never a CDN. Swagger UI sets inline styles.
const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
];

// Resolved rather than imported: the package's entry point would load the browser bundle into the server.
const SWAGGER_UI_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png" type="image/png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="stylesheet" href="/docs/assets/accessible.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// No deep links: Swagger UI puts them as links inside each operation's toggle button (nested controls, which
// screen readers cannot reach). The servers list gets the name Swagger UI does not give it.
const INIT = `window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: false });
new MutationObserver(() => {
  const servers = document.getElementById('servers');
  if (servers && !servers.hasAttribute('aria-label')) servers.setAttribute('aria-label', 'Server');
}).observe(document.getElementById('swagger-ui'), { childList: true, subtree: true });
`;

// Swagger UI's own colours that fall short of WCAG AA contrast (4.5:1), darkened (checked by docs-browser.spec.ts).
const ACCESSIBLE_CSS = `.swagger-ui .json-schema-2020-12-expand-deep-button { color: #4a4a4a; }
.swagger-ui .info .title small { background: #4f5663; }
.swagger-ui .info .title small.version-stamp { background: #3b6e00; }
.swagger-ui .info a, .swagger-ui .info .url, .swagger-ui .info__license__url .link { color: #1d5fae; }
.swagger-ui .btn.authorize, .swagger-ui .btn.authorize span { color: #1e6b47; border-color: #1e6b47; }
.swagger-ui .btn.authorize svg { fill: #1e6b47; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1a5e9a; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #1e6b47; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #8a4b08; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f6b5a; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b3261e; }
`;

/** /openapi.json and the /docs page that renders it. Public. */
export function docsRoutes(document: OpenApiDocument): Route[] {
  // Serialized and tagged once: the document never changes while the process runs, and stringifying it per
  // request let a flood of requests exhaust memory (docs/PERFORMANCE.md, "Figures behind design comments").
  // Express answers a matching If-None-Match with 304.
  const body = Buffer.from(JSON.stringify(document));
  const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
  return [
    route(openApiDocument, (_input, { res }) => {
      res.set({ 'Content-Type': 'application/json; charset=utf-8', ETag: etag }).send(body);
    }),
    route(apiDocs, (_input, { req, res }) => {
      pageHeaders(req, res, () => res.type('html').send(PAGE));
    }),
  ];
}

const pageHeaders = htmlPageHeaders(DOCS_CSP);

/** The files the /docs page loads: assets, not operations, so served by middleware that stays out of the route table. */
export function docsAssets(): Router {
  const router = Router();
  router.use('/docs/assets', staticRoute('/docs/assets/*'), pageHeaders, (req, res, next) => {
    if (req.path === '/init.js') res.type('application/javascript').send(INIT);
    else if (req.path === '/accessible.css') res.type('text/css').send(ACCESSIBLE_CSS);
    else next();
  });
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' }));
  return router;
}
