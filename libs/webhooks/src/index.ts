export {
  DEVELOPMENT_POLICY,
  STRICT_POLICY,
  judgeAddress,
  type AddressPolicy,
  type AddressRule,
  type AddressVerdict,
} from './address-policy';
export {
  DELIVERY_LIMITS,
  WEBHOOK_USER_AGENT,
  deliver,
  type AttemptResult,
  type DeliveryFailure,
  type DeliveryOptions,
  type DeliveryOutcome,
  type DeliveryRequest,
} from './deliver';
export { resolveDestination, systemResolver, type Destination, type ResolvedAddress, type Resolver } from './destination';
export { webhookPayload, type BulkReference, type ObjectReference, type WebhookPayload } from './payload';
export {
  DEFAULT_RETRY_SCHEDULE,
  DISABLE_AFTER_FAILING_MS,
  RETRY_JITTER,
  RetryScheduleError,
  nextAttemptAt,
  parseRetrySchedule,
  shouldDisableEndpoint,
  type RetrySchedule,
} from './retry-schedule';
export {
  DEFAULT_TOLERANCE_SECONDS,
  InvalidSecretError,
  newSecret,
  signatureHeaders,
  verifySignature,
  type SignatureHeaders,
  type VerifyResult,
} from './signature';
export {
  DESTINATION_RULES,
  WEBHOOK_URL_MAX_LENGTH,
  checkUrl,
  destinationReason,
  type DestinationRule,
  type UrlRule,
  type UrlVerdict,
} from './url-policy';
