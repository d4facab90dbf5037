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
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>
`;

const INIT = "window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', deepLinking: true });\n";

/** /openapi.json and the /docs page that renders it. Public. */
export function docsRoutes(document: OpenApiDocument): Route[] {
  // Serialized and tagged once: the document never changes while the process runs, and stringifying
  // 200 KB per request let a flood of them exhaust memory. Express answers a matching If-None-Match with 304.
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
    else next();
  });
  router.use('/docs/assets', express.static(SWAGGER_UI_DIR, { index: false, maxAge: '1d' }));
  return router;
}
