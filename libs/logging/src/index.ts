export { createLogger, type Logger } from './logger';
export { requestContext, currentRequestId, plainRequestId, type RequestContext } from './request-context';
