import type { Sequelize } from 'sequelize';
import type { PlatformConfig } from './platform-config';
import { apiVersion, type Release } from './changelog/parse-changelog';
import { changelogRoutes } from './changelog-routes';
import { docsRoutes } from './docs-routes';
import { healthRoutes } from './health-routes';
import { landingRoutes } from './landing-routes';
import { buildOpenApiDocument } from './openapi/document';
import * as op from './platform-operations';
import { declaredIn } from './routing/area';
import type { OperationSpec } from './routing/operation';
import type { Upstreams } from './upstreams/upstreams';

interface PlatformDependencies {
  config: PlatformConfig;
  sequelize: Sequelize;
  upstreams: Upstreams;
  /** CHANGELOG.md's releases, newest first: served as JSON, and the newest dated one is the API's version. */
  releases: Release[];
  /** Every operation of the app, which the OpenAPI document describes. */
  operations: OperationSpec[];
}

/** The gateway's own operations: the landing page, health, the documentation and the changelog. */
export const platformArea = declaredIn(op, ({ config, sequelize, upstreams, releases, operations }: PlatformDependencies) => {
  const version = apiVersion(releases);
  return [
    ...landingRoutes(version),
    ...healthRoutes(config, sequelize, upstreams),
    ...docsRoutes(buildOpenApiDocument(operations, version, config.PUBLIC_BASE_URL)),
    ...changelogRoutes(releases),
  ];
});
