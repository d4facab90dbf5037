import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { UpstreamCall } from '../upstreams/upstream';
import type { Access, Caller } from './access';
import type { ResponseDoc } from './responses';

type Shape = z.ZodObject;

/** The schemas of a request's parts; each is parsed before the handler runs, and a failure is a 400 naming the field. */
export interface RequestSchemas {
  path?: Shape;
  query?: Shape;
  /** Keyed by the header's name as documented (`Idempotency-Key`). */
  headers?: Shape;
  body?: z.ZodType;
}

/**
 * One HTTP operation, declared once: the gateway routes, authorises and
 * validates requests from it, types its handler from it, and the OpenAPI
 * document (/openapi.json) is generated from it.
 */
export interface OperationSpec<R extends RequestSchemas = RequestSchemas> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** In OpenAPI form: `/api/v1/transactions/{id}`. */
  path: string;
  operationId: string;
  /** The same operation under more paths, each with an operationId of its own. */
  aliases?: { path: string; operationId: string }[];
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  request: R;
  /**
   * A body that is not JSON: `multipart/form-data`, which the handler reads itself, as a stream (an upload); the
   * body schema then only documents its parts (a file part is a string of format `binary`).
   */
  bodyMedia?: 'multipart/form-data';
  /** How much body a request may send: operations that need no key read less. */
  bodyLimit?: 'keyed' | 'public';
  /** The operation changes a versioned record: If-Match is honoured (optional; a stale one is a 412). */
  ifMatch?: boolean;
  responses: Record<string, ResponseDoc>;
}

/** What the schemas parse a request into. */
export interface ParsedRequest<R extends RequestSchemas> {
  path: R['path'] extends Shape ? z.output<R['path']> : Record<string, never>;
  query: R['query'] extends Shape ? z.output<R['query']> : Record<string, never>;
  headers: R['headers'] extends Shape ? z.output<R['headers']> : Record<string, never>;
  body: R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
  /** With `ifMatch`: the version If-Match names, 0 for `*` or no If-Match (last write wins). */
  expectedVersion: number;
}

/** What a handler has besides the parsed request. */
export interface HandlerContext {
  req: Request;
  res: Response;
  /** Who called, as the access rule established. */
  caller: Caller;
  /** For calls to the services on behalf of this request. */
  upstream: UpstreamCall;
}

export type Handler<R extends RequestSchemas> = (input: ParsedRequest<R>, context: HandlerContext) => Promise<void> | void;

/** A declared operation and the code that answers it. */
export interface Route {
  spec: OperationSpec;
  handler: Handler<RequestSchemas>;
}

/** Declares an operation (the identity function: it exists for type inference). */
export const operation = <R extends RequestSchemas>(spec: OperationSpec<R>): OperationSpec<R> => spec;

/** Binds a handler to its declaration; its input is typed from the declaration's schemas. */
export const route = <R extends RequestSchemas>(spec: OperationSpec<R>, handler: Handler<R>): Route => ({
  spec: spec as OperationSpec,
  handler: handler as unknown as Handler<RequestSchemas>,
});
