import { newestRelease, type Release } from '../platform/changelog/parse-changelog';
import { areaOf, declaredIn } from '../platform/routing/area';
import type { OperationSpec } from '../platform/routing/operation';
import type { Upstreams } from '../platform/upstreams/upstreams';
import { bulkRoutes } from './bulk-routes';
import * as bulkOp from './bulk-operations';
import { categoryRoutes } from './category-routes';
import { codeRoutes } from './code-routes';
import { conditionRoutes } from './condition-routes';
import { diseaseRoutes } from './disease-routes';
import { dosageRoutes } from './dosage-routes';
import { drugRoutes } from './drug-routes';
import { labRoutes } from './lab-routes';
import { metadataRoutes } from './metadata-routes';
import { premiseRoutes } from './premise-routes';
import { suggestRoutes } from './suggest-routes';
import * as op from './reference-operations';
import { terminologyRoutes } from './terminology-routes';
import * as terminologyOp from './terminology-operations';

interface ReferenceDependencies {
  upstreams: Upstreams;
  /** The newest dated release dates the CapabilityStatement. */
  releases: Release[];
  /** Every operation of the app: the CapabilityStatement lists those that answer in FHIR. */
  operations: OperationSpec[];
}

/** The clinical reference data, read-only, as JSON or FHIR R4 (docs/REFERENCE.md), then its FHIR terminology and the bulk downloads. */
export const referenceArea = areaOf(
  declaredIn(op, ({ upstreams, releases, operations }: ReferenceDependencies) => [
    ...metadataRoutes(operations, newestRelease(releases)),
    ...[diseaseRoutes, labRoutes, dosageRoutes, drugRoutes, categoryRoutes, conditionRoutes, premiseRoutes, codeRoutes, suggestRoutes].flatMap((routes) => routes(upstreams)),
  ]),
  declaredIn(terminologyOp, ({ upstreams }: ReferenceDependencies) => terminologyRoutes(upstreams)),
  declaredIn(bulkOp, ({ upstreams }: ReferenceDependencies) => bulkRoutes(upstreams)),
);
