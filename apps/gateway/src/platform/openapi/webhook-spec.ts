import type { z } from 'zod';
import type { ResponseDoc } from '../routing/responses';

/**
 * One kind of request the API sends rather than answers: a webhook delivery, declared once like an operation. The
 * OpenAPI document lists each under its top-level `webhooks` (OpenAPI 3.1), so the generated SDK has its types.
 */
export interface WebhookSpec {
  /** The key under `webhooks`: the event type. */
  name: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** The headers every delivery carries, keyed by their names as sent. */
  headers: z.ZodObject;
  /** The JSON body. */
  payload: z.ZodType;
  /** What the receiver may answer, and what each answer makes the sender do. */
  responses: Record<string, ResponseDoc>;
}
