export { createLogger, type Logger } from './logger';
export { requestContext, currentClientRequestId, currentRequestId, plainRequestId, type RequestContext } from './request-context';
