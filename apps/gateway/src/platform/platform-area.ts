import type { Sequelize } from 'sequelize';
import type { PlatformConfig } from './platform-config';
import { apiVersion, type Release } from './changelog/parse-changelog';
import { changelogRoutes } from './changelog-routes';
import { docsRoutes } from './docs-routes';
import { healthRoutes } from './health-routes';
import { landingRoutes } from './landing-routes';
import { buildOpenApiDocument } from './openapi/document';
import * as op from './platform-operations';
import { declaredIn, type DescribedApi } from './routing/area';
import type { Upstreams } from './upstreams/upstreams';

interface PlatformDependencies extends DescribedApi {
  config: PlatformConfig;
  sequelize: Sequelize;
  upstreams: Upstreams;
  /** CHANGELOG.md's releases, newest first: served as JSON, and the newest dated one is the API's version. */
  releases: Release[];
}

/** The gateway's own operations: the landing page, health, the documentation and the changelog. */
export const platformArea = declaredIn(op, ({ config, sequelize, upstreams, releases, operations, webhooks }: PlatformDependencies) => {
  const version = apiVersion(releases);
  return [
    ...landingRoutes(version),
    ...healthRoutes(config, sequelize, upstreams),
    ...docsRoutes(buildOpenApiDocument({ operations, webhooks }, version, config.PUBLIC_BASE_URL)),
    ...changelogRoutes(releases),
  ];
});
