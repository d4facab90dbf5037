export {
  createApiClient,
  createFhirClient,
  downloadDocument,
  fileUpload,
  newIdempotencyKey,
  ok,
  pages,
  type ApiClient,
  type ApiClientOptions,
  type FhirApiClient,
  type DownloadedDocument,
} from './client';
export { ApiProblemError, type Problem } from './problem-error';
export {
  verifyWebhook,
  WEBHOOK_EVENT_TYPES,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookHeaders,
  type WebhookRefusal,
} from './webhooks';
export type { components, operations, paths, webhooks } from './generated/api';
