import { z } from 'zod';

/** A response header as documented. */
export interface HeaderDoc {
  description?: string;
  schema: z.ZodType;
}

/** What an answer is to a FHIR client (`_format=fhir`): the CapabilityStatement (GET /api/v1/metadata) lists it. */
export type FhirInteraction =
  | {
      resourceType: string;
      /** `read`: one resource; `search-type`: a searchset Bundle of them. */
      interaction: 'read' | 'search-type';
    }
  | { resourceType: string; interaction: 'operation'; operation: FhirOperation };

/** A FHIR operation on a resource type (`CodeSystem/$lookup`): its name, its standard definition, and what it answers. */
export interface FhirOperation {
  /** Without the `$`: `lookup`. */
  name: string;
  /** The canonical URL of its OperationDefinition. */
  definition: string;
  /** The resource type of its answer (`Parameters`, `ValueSet`). */
  answers: string;
}

/** One documented answer of an operation: its media types and their body schemas, and its headers. */
export interface ResponseDoc {
  description: string;
  /** Set on the success of an operation that also answers in FHIR R4. */
  fhir?: FhirInteraction;
  /** Media type → body schema; `null` for a body of that type without a schema (an HTML page). */
  content?: Record<string, z.ZodType | null>;
  headers?: Record<string, HeaderDoc>;
}

export const problemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.int().min(400).max(599),
    detail: z.string().optional(),
    requestId: z.string().optional(),
    errors: z
      .array(z.object({ field: z.string(), message: z.string() }))
      .optional()
      .meta({ description: 'Field-level problems: which field or parameter, and what is wrong with it.' }),
  })
  .meta({ id: 'Problem', description: 'RFC 9457 problem details.' });

/** The FHIR form of a problem, answered instead when the client asked for FHIR (libs/http-problems). */
export const operationOutcomeSchema = z
  .looseObject({
    resourceType: z.literal('OperationOutcome'),
    issue: z.array(
      z.looseObject({
        severity: z.literal('error'),
        code: z.string().meta({ description: 'A FHIR IssueType code: `invalid`, `login`, `forbidden`, `not-found`, `throttled`, …' }),
        diagnostics: z.string().optional(),
        expression: z.array(z.string()).optional().meta({ description: 'The bad parameter or field.' }),
      }),
    ),
  })
  .meta({ id: 'OperationOutcome', description: 'FHIR R4 OperationOutcome: the problem, then one issue per bad field.' });

export const json = (description: string, schema: z.ZodType, headers?: Record<string, HeaderDoc>): ResponseDoc => ({
  description,
  content: { 'application/json': schema },
  ...(headers ? { headers } : {}),
});

export const problem = (description: string, headers?: Record<string, HeaderDoc>): ResponseDoc => ({
  description,
  content: { 'application/problem+json': problemSchema },
  ...(headers ? { headers } : {}),
});

export const noContent = (description: string): ResponseDoc => ({ description });

/** A list's page: the items under `key` (at most `size`, where the page size is fixed), and `nextCursor` while more follow. */
export const page = <K extends string, T extends z.ZodType>(key: K, item: T, size?: number) =>
  z.object({ [key]: size === undefined ? z.array(item) : z.array(item).max(size), nextCursor: z.string().optional() } as {
    [P in K]: z.ZodArray<T>;
  } & {
    nextCursor: z.ZodOptional<z.ZodString>;
  });

export const etagHeader = { ETag: { description: 'The record version, e.g. `"3"`.', schema: z.string() } };

/** The ETag of a rendering that holds more than the record (names looked up elsewhere): a digest of the body. */
export const bodyEtagHeader = {
  ETag: { description: 'A weak tag of this body (for If-None-Match), not the record version: it also changes when a name it shows does.', schema: z.string() },
};

export const locationHeader = { Location: { description: 'The path of the new record.', schema: z.string() } };

/** A 401: every one carries the challenge (http/unauthorized.ts). */
export const unauthorized = (description: string): ResponseDoc =>
  problem(description, { 'WWW-Authenticate': { description: '`Bearer realm="api"`.', schema: z.string() } });
