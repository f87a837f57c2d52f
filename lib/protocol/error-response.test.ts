/** Pins the HTTP status of every catalog entry in every era, and the envelope the renderer builds. */
import {
  bodyTooLarge,
  bodyUnreadable,
  bodyUnsupported,
  capacityExceeded,
  forbiddenOrigin,
  fromOutcome,
  headerMismatch,
  internalError,
  invalidParams,
  invalidRequestState,
  methodNotAllowed,
  methodNotFound,
  invalidMessage,
  parseError,
  serverDraining,
  sessionHeaderRequired,
  sessionNotFound,
  sessionVersionMismatch,
  tooLarge,
  unsupportedProtocolVersion,
} from './error-catalog';
import {
  exchangeCancelled,
  exchangeExpired,
  exchangeTerminated,
  missingClientCapabilities,
  roundCapExceeded,
  roundFailed,
} from './exchange-errors';
import { type Era, renderErrorResponse } from './error-response';
import type { ErrorKind, RpcError } from './rpc-error';

/** One error of each kind, built the way the service builds it. */
const SAMPLES: Record<ErrorKind, RpcError> = {
  parseError: parseError(),
  invalidRequest: invalidMessage('jsonrpc', 'Invalid input: expected "2.0"'),
  sessionHeaderRequired: sessionHeaderRequired(),
  sessionVersionMismatch: sessionVersionMismatch('2025-03-26', '2025-06-18'),
  methodNotFound: methodNotFound('nope/nope'),
  invalidParams: invalidParams('Invalid params: x', { path: 'params.x' }),
  invalidRequestState: invalidRequestState(),
  headerMismatch: headerMismatch('Mcp-Method', 'a', 'body', 'b'),
  missingCapability: fromOutcome(missingClientCapabilities({ elicitation: {} })),
  unsupportedVersion: unsupportedProtocolVersion('1999-01-01', ['2026-07-28']),
  sessionNotFound: sessionNotFound(),
  serverBusy: capacityExceeded('open streams', 4, 7),
  tooLarge: tooLarge('the answer', 'result', 10, 20),
  serverDraining: serverDraining(),
  bodyTooLarge: bodyTooLarge(),
  bodyUnsupported: bodyUnsupported(),
  bodyUnreadable: bodyUnreadable(),
  methodNotAllowed: methodNotAllowed('POST'),
  forbidden: forbiddenOrigin('http://evil.example'),
  expired: fromOutcome(exchangeExpired('x', 1, 600_000)),
  capped: fromOutcome(roundCapExceeded('x', 8)),
  cancelled: fromOutcome(exchangeCancelled('x')),
  terminated: fromOutcome(exchangeTerminated('x', 'TERMINATED')),
  exchangeFailed: fromOutcome(roundFailed('x', 1)),
  internal: internalError(),
  unlisted: fromOutcome({ code: -32099, message: 'from an older version' }),
};

//   kind                      code    modern legacy transport
const TABLE: Array<[ErrorKind, number, number, number, number]> = [
  ['parseError', -32700, 400, 400, 400],
  ['invalidRequest', -32600, 400, 200, 400],
  ['sessionHeaderRequired', -32600, 400, 400, 400],
  ['sessionVersionMismatch', -32600, 400, 400, 400],
  ['methodNotFound', -32601, 404, 200, 404],
  ['invalidParams', -32602, 400, 200, 400],
  ['invalidRequestState', -32602, 400, 200, 400],
  ['headerMismatch', -32020, 400, 200, 400],
  ['missingCapability', -32021, 400, 200, 400],
  ['unsupportedVersion', -32022, 400, 200, 400],
  ['sessionNotFound', -32001, 404, 404, 404],
  ['serverBusy', -32000, 429, 429, 429],
  ['tooLarge', -32602, 413, 413, 413],
  ['serverDraining', -32000, 503, 503, 503],
  ['bodyTooLarge', -32600, 413, 413, 413],
  ['bodyUnsupported', -32600, 415, 415, 415],
  ['bodyUnreadable', -32600, 400, 400, 400],
  ['methodNotAllowed', -32600, 405, 405, 405],
  ['forbidden', -32600, 403, 403, 403],
  ['expired', -32001, 200, 200, 200],
  ['capped', -32011, 200, 200, 200],
  ['cancelled', -32012, 200, 200, 200],
  ['terminated', -32013, 200, 200, 200],
  ['exchangeFailed', -32603, 500, 200, 500],
  ['internal', -32603, 500, 500, 500],
  ['unlisted', -32099, 200, 200, 200],
];

describe('era × error → HTTP status', () => {
  it('covers every catalog entry', () => {
    expect(TABLE.map(([kind]) => kind).sort()).toEqual(Object.keys(SAMPLES).sort());
  });

  it.each(TABLE)('%s (%i): modern %i, legacy %i, transport %i', (kind, code, modern, legacy, transport) => {
    const error = SAMPLES[kind];
    expect(error.kind).toBe(kind);
    expect(error.code).toBe(code);
    const statuses: Record<Era, number> = { modern, legacy, transport };
    for (const era of Object.keys(statuses) as Era[]) {
      expect(renderErrorResponse(era, error, 1).status).toBe(statuses[era]);
    }
  });
});

describe('renderErrorResponse', () => {
  it('echoes the request id, and null when there is none', () => {
    expect(renderErrorResponse('modern', parseError(), 'req-7').body.id).toBe('req-7');
    expect(renderErrorResponse('legacy', parseError(), 0).body.id).toBe(0);
    expect(renderErrorResponse('transport', parseError(), undefined).body.id).toBeNull();
  });

  it('omits data when the error has none, and carries it when it has', () => {
    expect(renderErrorResponse('modern', sessionNotFound(), 3).body).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32001, message: 'Session not found' },
    });
    expect('data' in renderErrorResponse('modern', sessionNotFound(), 3).body.error).toBe(false);
    expect(renderErrorResponse('modern', tooLarge('the answer', 'result', 10, 20), 3).body.error.data).toEqual({
      path: 'result',
      limit: 10,
      size: 20,
    });
  });

  it('says when to retry, what is allowed and when the connection closes', () => {
    expect(renderErrorResponse('legacy', capacityExceeded('open streams', 4, 7), null).headers).toEqual({
      'Retry-After': '7',
    });
    expect(renderErrorResponse('transport', serverDraining(), null).headers).toEqual({
      'Retry-After': '1',
      Connection: 'close',
    });
    expect(renderErrorResponse('transport', methodNotAllowed('GET, POST, DELETE'), null).headers).toEqual({
      Allow: 'GET, POST, DELETE',
    });
    expect(renderErrorResponse('modern', parseError(), 1).headers).toEqual({});
  });
});
