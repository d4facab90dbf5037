import type { Release } from '../platform/changelog/parse-changelog';
import { publicBaseOf } from '../platform/http/fhir-request';
import { route, type OperationSpec, type Route } from '../platform/routing/operation';
import { capabilityStatement } from './fhir/capability-statement';
import { fhirMetadata } from './reference-operations';

/** GET /api/v1/metadata: built once from the declarations; only its own address is the request's. */
export function metadataRoutes(operations: OperationSpec[], release: Release | undefined): Route[] {
  const statement = capabilityStatement(operations, {
    version: release?.version ?? '0.0.0',
    date: release?.date ?? new Date().toISOString().slice(0, 10),
  });
  return [
    route(fhirMetadata, (_input, { req, res }) => {
      const implementation = { description: 'This gateway', url: `${publicBaseOf(req)}/api/v1` };
      res.type('application/fhir+json').send(JSON.stringify({ ...statement, implementation }));
    }),
  ];
}
