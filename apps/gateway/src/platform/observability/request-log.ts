import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import pinoHttp from 'pino-http';
import type { Logger } from '@libs/logging';
import { boundedText } from '@libs/safe-text';

/** The longest URL (path and query) a request log line keeps; longer ones are cut and marked. */
export const LOGGED_URL_MAX = 512;
/** The longest User-Agent a request log line keeps. */
export const LOGGED_USER_AGENT_MAX = 128;

/** A header's value, which Node gives as a string (or an array for a few repeated headers). */
const headerText = (value: string | string[] | undefined, max: number): string | undefined =>
  value === undefined ? undefined : boundedText(Array.isArray(value) ? value.join(', ') : value, max);

/**
 * What a request log line says about the request: a chosen, bounded set of
 * fields, never the header object. Every header line of every request is
 * written to a log whose buffer drains at the speed of its reader, and a few
 * connections sending large headers fill the heap within seconds
 * (apps/e2e/src/header-flood.spec.ts).
 */
function requestFields(req: IncomingMessage) {
  const express = req as Request;
  return {
    method: req.method,
    url: boundedText(express.originalUrl ?? req.url ?? '', LOGGED_URL_MAX),
    // The client as Express sees it: the socket's peer, or X-Forwarded-For's when TRUST_PROXY names the balancer.
    remoteAddress: express.ip ?? req.socket.remoteAddress,
    userAgent: headerText(req.headers['user-agent'], LOGGED_USER_AGENT_MAX),
    contentLength: headerText(req.headers['content-length'], 20),
  };
}

function responseFields(res: ServerResponse) {
  return { statusCode: res.statusCode, contentLength: headerText(res.getHeader('content-length')?.toString(), 20) };
}

/**
 * The request's own id on its closing line. That line is written from the
 * response's 'finish' or 'close' event, whose async context may be another
 * request's (pipelined on the same connection): the logger's mixin would name
 * that one, and a field of the line itself takes precedence over the mixin.
 */
const withRequestId = (req: IncomingMessage, _res: ServerResponse, fields: object) => ({ ...fields, requestId: req.id });

/**
 * One line per request when it ends (GET /healthz, polled by probes, is not
 * logged), with the requestId that every other line of the request carries.
 * The line is written at info: above that level the request gets the process's
 * logger (whose mixin names the request id) and none of pino-http's per-request
 * child logger, listeners and serializers, which cost a visible share of the
 * gateway's CPU on a forwarded GET while writing nothing (the bench's `exact
 * search` with --profile). The level is read per request, so
 * a level changed at run time applies to the next request.
 */
export function requestLog(logger: Logger): RequestHandler {
  const logged = pinoHttp({
    customSuccessObject: withRequestId,
    customErrorObject: (req, res, _error, fields) => withRequestId(req, res, fields),
    logger, // redacts credentials (libs/logging)
    genReqId: (_req, res) => (res as Response).locals.requestId as string,
    // The raw request and response go to our serializers, not pino's, which copy every header.
    wrapSerializers: false,
    serializers: { req: requestFields, res: responseFields },
    autoLogging: { ignore: (req) => req.url === '/healthz' },
  });
  return (req, res, next) => {
    if (logger.isLevelEnabled('info')) return logged(req, res, next);
    req.log = logger;
    next();
  };
}
