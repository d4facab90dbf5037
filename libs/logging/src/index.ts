export { createLogger, type Logger } from './logger';
export { requestContext, currentRequestId, type RequestContext } from './request-context';
