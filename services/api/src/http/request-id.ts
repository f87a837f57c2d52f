/**
 * The request id of every HTTP request: the caller's `X-Request-Id` when it is one this service
 * can carry safely (at most 128 characters of letters, digits and `._~:+/=-`, so it fits a log
 * line and a header as it is and can forge neither), else a fresh UUID. It is echoed in the
 * response's `X-Request-Id`, and every line logged while the request is served carries it as
 * `reqId` (lib/log.ts), with the request's `exchangeId` once it is known.
 */
import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import { runAsRequest } from '../../../../lib/log';

export const REQUEST_ID_HEADER = 'X-Request-Id';

const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._~:+/=-]{1,128}$/;

/** The id a request is known by: the one it brought, if acceptable, else a new one. */
export function requestIdFor(header: string | undefined): string {
  return header !== undefined && ACCEPTED_REQUEST_ID.test(header) ? header : randomUUID();
}

/** Gives each request its id, echoes it, and serves the rest of the request as it (mount first). */
export function requestIds(): RequestHandler {
  return (req, res, next) => {
    const reqId = requestIdFor(req.get(REQUEST_ID_HEADER));
    res.set(REQUEST_ID_HEADER, reqId);
    runAsRequest(reqId, () => next());
  };
}
