import { z } from 'zod';
import type { OperationSpec } from '../../platform/routing/operation';
import { operationPaths } from '../../platform/routing/mount';
import type { FhirInteraction, FhirOperation } from '../../platform/routing/responses';
import type { FhirResource } from './bundle';

/** Query parameters that are not searches: paging and the format, which FHIR clients know as such. */
const NOT_SEARCH = new Set(['cursor', '_format']);

/** A FHIR search parameter type for a query field, from the type it parses to: codes and flags are tokens. */
function searchType(field: z.ZodType): 'token' | 'number' | 'string' {
  const json = z.toJSONSchema(field, { io: 'output', unrepresentable: 'any' }) as { type?: string; enum?: unknown[] };
  if (json.enum || json.type === 'boolean') return 'token';
  if (json.type === 'integer' || json.type === 'number') return 'number';
  return 'string';
}

interface ResourceEntry {
  type: string;
  interaction: Map<Exclude<FhirInteraction['interaction'], 'operation'>, string[]>;
  searchParam: Map<string, { type: string; paths: string[]; description?: string }>;
  operation: { spec: FhirOperation; paths: string[] }[];
}

function resourceEntries(operations: OperationSpec[]): ResourceEntry[] {
  const byType = new Map<string, ResourceEntry>();
  for (const spec of operations) {
    const fhir = spec.responses['200']?.fhir;
    if (!fhir) continue;
    const entry: ResourceEntry = byType.get(fhir.resourceType) ?? { type: fhir.resourceType, interaction: new Map(), searchParam: new Map(), operation: [] };
    byType.set(fhir.resourceType, entry);
    const paths = operationPaths(spec).map((path) => `GET ${path}`);
    // An operation's parameters are its own (its OperationDefinition has them), not searches of the type.
    if (fhir.interaction === 'operation') {
      entry.operation.push({ spec: fhir.operation, paths });
      continue;
    }
    entry.interaction.set(fhir.interaction, [...(entry.interaction.get(fhir.interaction) ?? []), ...paths]);
    for (const [name, field] of Object.entries((spec.request.query?.shape ?? {}) as Record<string, z.ZodType>)) {
      if (NOT_SEARCH.has(name)) continue;
      const known = entry.searchParam.get(name);
      const description = field.meta()?.description;
      entry.searchParam.set(name, {
        type: known?.type ?? searchType(field),
        paths: [...(known?.paths ?? []), ...paths],
        description: known?.description ?? description,
      });
    }
  }
  return [...byType.values()].sort((a, b) => a.type.localeCompare(b.type));
}

/** The permissions the FHIR interactions need, each once (`reference:read`, `scheduling:browse`, `appointments:read`). */
function permissionsOf(operations: OperationSpec[]): string {
  const permissions = operations
    .filter((spec) => spec.responses['200']?.fhir && 'key' in spec.access)
    .map((spec) => `\`${(spec.access as { key: string }).key}\``);
  return [...new Set(permissions)].join(', ');
}

/**
 * The CapabilityStatement of the FHIR view (GET /api/v1/metadata), derived from
 * the operation declarations: every resource type an operation answers with
 * `_format=fhir`, its interactions, the query parameters that search it and its
 * operations (`$lookup`, `$expand`, …). The
 * paths are the API's own rather than FHIR's `[base]/[type]`, so each entry's
 * documentation names them.
 */
export function capabilityStatement(operations: OperationSpec[], release: { version: string; date: string }): FhirResource {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: release.date,
    publisher: 'Clinical reference and student finance API',
    kind: 'instance',
    software: { name: 'clinical-finance gateway', version: release.version },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Read-only reference data, schedules, free slots and appointments. Ask for FHIR with `_format=fhir` or `Accept: application/fhir+json`; page with the Bundle\'s `next` link.',
        security: { description: `Every interaction needs an API key (\`Authorization: Bearer <key>\`) with its operation's permission: ${permissionsOf(operations)}.` },
        resource: resourceEntries(operations).map((entry) => ({
          type: entry.type,
          interaction: [...entry.interaction].map(([code, paths]) => ({ code, documentation: paths.join(', ') })),
          ...(entry.searchParam.size > 0
            ? {
                searchParam: [...entry.searchParam].map(([name, param]) => ({
                  name,
                  type: param.type,
                  documentation: [param.description, `On ${param.paths.join(', ')}.`].filter(Boolean).join(' '),
                })),
              }
            : {}),
          ...(entry.operation.length > 0
            ? {
                operation: entry.operation.map(({ spec, paths }) => ({
                  name: spec.name,
                  definition: spec.definition,
                  documentation: paths.join(', '),
                })),
              }
            : {}),
        })),
      },
    ],
  };
}
