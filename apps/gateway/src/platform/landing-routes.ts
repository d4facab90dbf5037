import { htmlPageHeaders } from './http/security-headers';
import { LANDING_LINKS } from './landing-links';
import { landing } from './platform-operations';
import { route, type Route } from './routing/operation';

const NAME = 'Clinical reference and student finance API';

// A static page: no script, no style, nothing from elsewhere.
const pageHeaders = htmlPageHeaders(["default-src 'none'", "base-uri 'none'", "form-action 'none'"]);

const page = (version: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${NAME}</title>
</head>
<body>
<main>
<h1>${NAME}</h1>
<p>Version ${version}. Sign up in the dashboard to get an API key, then send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
<ul>
${Object.values(LANDING_LINKS)
  .map(({ href, title }) => `<li><a href="${href}">${title}</a></li>`)
  .join('\n')}
</ul>
</main>
</body>
</html>
`;

/** GET / (public): a page for a browser, a JSON index for API clients; both built once at start. */
export function landingRoutes(version: string): Route[] {
  const html = page(version);
  const index = { name: NAME, version, links: LANDING_LINKS };
  return [
    route(landing, (_input, { req, res }) => {
      res.vary('Accept');
      // Browsers list text/html first; clients that ask for JSON, for anything, or for nothing get JSON.
      if (req.accepts(['application/json', 'text/html']) === 'text/html') pageHeaders(req, res, () => res.type('html').send(html));
      else res.json(index);
    }),
  ];
}
