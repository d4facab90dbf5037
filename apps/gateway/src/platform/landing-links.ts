/** Where a newcomer goes next: the same links in the HTML page and the JSON index. */
export const LANDING_LINKS = {
  docs: { href: '/docs', title: 'API documentation' },
  openapi: { href: '/openapi.json', title: 'OpenAPI document' },
  dashboard: { href: '/dashboard/', title: 'Dashboard: sign up and manage API keys' },
  changelog: { href: '/api/v1/changelog', title: 'Changelog' },
  status: { href: '/readyz', title: 'Status' },
} as const;
