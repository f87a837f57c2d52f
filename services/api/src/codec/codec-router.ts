/**
 * The codec endpoint (`/codec`): Temporal's remote codec protocol over the service's payload
 * codec, so an authorized operator reads in the Temporal Web UI and CLI what the history holds
 * encrypted. Mounted only when ADMIN_TOKEN is set; otherwise every /codec route answers 404.
 *
 * - `POST /codec/decode`, `POST /codec/encode`: body `{"payloads":[...]}`, the proto3 JSON of
 *   `temporal.api.common.v1.Payloads` (lib/payload-codec/payloads-json.ts), answered in the same
 *   shape. `X-Namespace` must name the service's namespace (TEMPORAL_NAMESPACE); the body may be
 *   at most CODEC_MAX_BODY_BYTES. Decoding returns a payload that is not encrypted as it is (it is
 *   in clear in the history anyway), whatever PAYLOAD_CODEC_ACCEPT_PLAINTEXT says, and opens one
 *   encrypted before payloads were bound, whatever PAYLOAD_CODEC_UNBOUND says; a payload that does
 *   not open is refused (422) naming why. The protocol names the namespace, never the workflow: a
 *   bound payload is checked against the namespace alone (`bound-elsewhere` for another's), and
 *   what encoding mints is bound to the namespace alone, which workers refuse where a workflow's
 *   own payload is expected unless PAYLOAD_CODEC_NAMESPACE_ONLY is `accept`; an `X-Workflow-Id`
 *   header (not part of the protocol: curl's, a script's) binds it to that workflow instead.
 * - CORS for the Temporal Web UI's origin (codec-cors.ts), then authorization (codec-credentials.ts):
 *   decoding takes the admin token as a bearer header, or a browser's sign-in cookie
 *   (codec-sign-in.ts); encoding, which forges payloads, only CODEC_ENCODE_TOKEN, and is off
 *   without it. A wrong token is a guess: a client address past ADMIN_TOKEN_MAX_FAILURES gets 429
 *   before its credential is read (auth/token-guesses.ts, shared with /admin and the sign-in).
 *
 * Errors are `{ error: { code, message } }`, as on /admin. Every decode and encode is logged with
 * its payload count and the credential that granted it, never with what the payloads hold.
 */
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler } from 'express';
import type { PayloadCodec } from '@temporalio/common';
import type { Logger } from '../../../../lib/log';
import { PayloadCodecError } from '../../../../lib/payload-codec/payload-codec';
import { payloadsFromJson, PayloadsJsonError, payloadsToJson } from '../../../../lib/payload-codec/payloads-json';
import { operatorError } from '../http/operator-error';
import { countGuess, refuseGuesses } from '../auth/bearer-auth';
import { tokenGuessLockout, type TokenGuesses } from '../auth/token-guesses';
import { codecAuthorization, type CodecCredential } from './codec-credentials';
import { codecCors } from './codec-cors';

export interface CodecRouterDeps {
  /** The service's payload codec, reading plaintext as it is. */
  codec: PayloadCodec;
  namespace: string;
  allowedOrigins: ReadonlyArray<string>;
  maxBodyBytes: number;
  credentials: ReadonlyArray<CodecCredential>;
  /** What grants POST /codec/encode (CODEC_ENCODE_TOKEN); absent, encoding is off. */
  encodeCredential?: CodecCredential;
  /** The browser sign-in pages (codec-sign-in.ts). */
  signIn?: Router;
  /** Wrong tokens per client address, shared with /admin and the sign-in. */
  guesses: TokenGuesses;
  log: Logger;
}

const OPERATIONS = ['/decode', '/encode'];
const WORKFLOW_ID = /^[\x21-\x7e]{1,1000}$/;

export function codecRouter(deps: CodecRouterDeps): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  if (deps.signIn) router.use(deps.signIn);
  router.use(OPERATIONS, codecCors(deps.allowedOrigins));
  const handle =
    (operation: 'decode' | 'encode'): RequestHandler =>
    async (req, res, next) => {
      try {
        const payloads = payloadsFromJson(req.body);
        const workflowId = operation === 'encode' ? req.get('x-workflow-id') : undefined;
        if (workflowId !== undefined && !WORKFLOW_ID.test(workflowId))
          return operatorError(
            res,
            400,
            'invalid_parameter',
            'X-Workflow-Id must be a workflow id (1 to 1000 printable characters)',
            {
              parameter: 'X-Workflow-Id',
            },
          );
        // Bound to one workflow when told which: a payload only that workflow takes.
        const context =
          workflowId !== undefined ? { type: 'workflow' as const, namespace: deps.namespace, workflowId } : undefined;
        const result = await deps.codec[operation](payloads, context);
        deps.log.info(
          {
            operation,
            payloads: payloads.length,
            by: res.locals.codecCredential,
            ...(workflowId ? { workflowId } : {}),
          },
          'codec request',
        );
        res.json(payloadsToJson(result));
      } catch (error) {
        next(error);
      }
    };
  const checks = [namespaceCheck(deps.namespace), jsonBody(deps.maxBodyBytes)];
  const lockout = tokenGuessLockout(deps.guesses, refuseGuesses);
  const guessAt = (where: string) => (req: Request) => countGuess(deps.guesses, deps.log, req, where);
  router.post(
    '/decode',
    lockout,
    codecAuthorization(deps.credentials, guessAt('codec/decode')),
    ...checks,
    handle('decode'),
  );
  // The CLI encodes a query's arguments through the endpoint even when there are none (`temporal
  // workflow metadata` posts `{}`): encoding nothing mints nothing, so it takes what decoding takes,
  // whether encoding is on or off.
  router.post(
    '/encode',
    nothingToEncode,
    lockout,
    codecAuthorization(deps.credentials, guessAt('codec/encode')),
    namespaceCheck(deps.namespace),
    (_req, res) => {
      deps.log.info({ operation: 'encode', payloads: 0, by: res.locals.codecCredential }, 'codec request');
      res.json(payloadsToJson([]));
    },
  );
  // Encoding mints payloads the workers take as the service's own: its own credential, off without one.
  if (deps.encodeCredential)
    router.post(
      '/encode',
      lockout,
      codecAuthorization(
        [deps.encodeCredential],
        guessAt('codec/encode'),
        'An Authorization: Bearer <CODEC_ENCODE_TOKEN> header is required',
      ),
      ...checks,
      handle('encode'),
    );
  else
    router.post('/encode', (_req, res) =>
      operatorError(res, 404, 'not_found', 'POST /codec/encode is off: set CODEC_ENCODE_TOKEN to turn it on'),
    );
  router.use((_req, res) =>
    operatorError(res, 404, 'not_found', 'No such codec route (POST /codec/decode, /codec/encode)'),
  );
  router.use(codecErrors(deps.maxBodyBytes, deps.log));
  return router;
}

/** The most an encode request of no payload takes: `{}`, `{"payloads":[]}`, with room for spaces. */
const NOTHING_TO_ENCODE_BYTES = 64;
const parseSmallBody = express.json({ limit: NOTHING_TO_ENCODE_BYTES, strict: true });

/**
 * Passes on (to the next route) unless the request is an encode of no payload: a JSON body of at
 * most a few bytes that holds none. A larger body is not read here, before its credential is.
 */
const nothingToEncode: RequestHandler = (req, res, next) => {
  const length = Number(req.get('content-length'));
  if (!req.is('application/json') || !(length >= 0 && length <= NOTHING_TO_ENCODE_BYTES)) return next('route');
  parseSmallBody(req, res, (error?: unknown) => {
    // Its body is read: one that is not JSON is refused here, as the route it would reach refuses it.
    if (error) return next(error);
    try {
      return payloadsFromJson(req.body).length === 0 ? next() : next('route');
    } catch {
      return next('route');
    }
  });
};

/** What /codec answers while the endpoint is off (no ADMIN_TOKEN). */
export function codecEndpointOff(): RequestHandler {
  return (_req, res) => operatorError(res, 404, 'not_found', 'The codec endpoint is off: ADMIN_TOKEN is not set');
}

function namespaceCheck(namespace: string): RequestHandler {
  return (req, res, next) => {
    const asked = req.get('x-namespace');
    if (asked === namespace) return next();
    operatorError(
      res,
      400,
      'invalid_parameter',
      asked === undefined
        ? `An X-Namespace header is required (this endpoint serves namespace "${namespace}")`
        : `This endpoint serves namespace "${namespace}" only, not "${asked.slice(0, 128)}"`,
      { parameter: 'X-Namespace' },
    );
  };
}

function jsonBody(maxBodyBytes: number): RequestHandler {
  const parse = express.json({ limit: maxBodyBytes, strict: true });
  return (req, res, next) => {
    if (!req.is('application/json'))
      return operatorError(res, 415, 'invalid_parameter', 'The body must be application/json', { parameter: 'body' });
    parse(req, res, next);
  };
}

/** Body refusals as 400/413, payloads that do not open as 422, the rest as 500. */
function codecErrors(maxBodyBytes: number, log: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    if (error instanceof PayloadsJsonError)
      return operatorError(res, 400, 'invalid_parameter', `The body is not proto3 JSON of Payloads: ${error.message}`, {
        parameter: error.path,
      });
    if (error instanceof PayloadCodecError) {
      log.warn({ reason: error.reason }, 'codec request refused a payload');
      return operatorError(res, 422, 'undecodable', error.message, { reason: error.reason });
    }
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status === 413)
      return operatorError(
        res,
        413,
        'too_large',
        `The body is over CODEC_MAX_BODY_BYTES (${maxBodyBytes} bytes): send fewer payloads per request`,
        { parameter: 'body' },
      );
    if (status >= 400 && status < 500)
      return operatorError(res, 400, 'invalid_parameter', 'The body is not valid JSON', { parameter: 'body' });
    log.error({ err: error }, 'codec request failed');
    operatorError(res, 500, 'unavailable', 'The codec request could not be served');
  };
}
