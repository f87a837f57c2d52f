// Pins modern-era recognition, and the request ladder's refusals: of a bad `_meta` envelope (code,
// message and path), and of mirrored headers (Mcp-Name, a tool's Mcp-Param-*) in their place on it.
import type { Request } from 'express';
import type { RpcError } from '../../../../lib/protocol/rpc-error';
import { hasModernMeta, validateModernRequest } from './validate-request';

describe('hasModernMeta', () => {
  it('recognises the 2026-07-28 envelope by its protocol version key', () => {
    expect(hasModernMeta({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } })).toBe(true);
  });

  it('does not take other params for it', () => {
    expect(hasModernMeta({ protocolVersion: '2025-11-25' })).toBe(false);
    expect(hasModernMeta(undefined)).toBe(false);
  });
});

describe('validateModernRequest', () => {
  const VERSION = 'io.modelcontextprotocol/protocolVersion';
  const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
  const headers: Record<string, string> = {
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'greet',
  };
  const req = { get: (name: string) => headers[name.toLowerCase()] } as unknown as Request;
  const call = (meta: Record<string, unknown> | undefined) =>
    validateModernRequest(req, 'tools/call', { name: 'greet', ...(meta ? { _meta: meta } : {}) }, new Map());
  /** The refusal `call` throws, as the wire sees it. */
  const refusal = (meta: Record<string, unknown> | undefined) => {
    try {
      call(meta);
    } catch (error) {
      const { code, message, data } = error as RpcError;
      return { code, message, data };
    }
    throw new Error('not refused');
  };
  const missing = (key: string) => ({
    code: -32602,
    message: `Missing required _meta field: ${key}`,
    data: { path: `params._meta.${key}` },
  });

  it('reads the version, the capabilities as sent, the log level and the progress token', () => {
    const capabilities = { elicitation: {}, experimental: { x: { y: 1 } }, custom: [1] };
    expect(
      call({
        [VERSION]: '2026-07-28',
        [CAPABILITIES]: capabilities,
        progressToken: 7,
        'io.modelcontextprotocol/logLevel': 'info',
      }),
    ).toStrictEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: capabilities,
      logLevel: 'info',
      progressToken: 7,
    });
    expect(call({ [VERSION]: '2026-07-28', [CAPABILITIES]: capabilities }).clientCapabilities).toBe(capabilities);
    expect(call({ [VERSION]: '2026-07-28', [CAPABILITIES]: {}, progressToken: 'p' })).toStrictEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: {},
      progressToken: 'p',
    });
  });

  it('refuses a missing or mistyped version or capabilities as missing, the version first', () => {
    expect(refusal(undefined)).toEqual(missing(VERSION));
    expect(refusal({})).toEqual(missing(VERSION));
    expect(refusal({ [CAPABILITIES]: {} })).toEqual(missing(VERSION));
    expect(refusal({ [VERSION]: 20260728, [CAPABILITIES]: {} })).toEqual(missing(VERSION));
    expect(refusal({ [VERSION]: '2026-07-28' })).toEqual(missing(CAPABILITIES));
    for (const capabilities of [null, [], 'all', 1])
      expect(refusal({ [VERSION]: '2026-07-28', [CAPABILITIES]: capabilities })).toEqual(missing(CAPABILITIES));
  });

  it('refuses a version this server does not implement, once the envelope is whole', () => {
    headers['mcp-protocol-version'] = '2027-01-01';
    try {
      expect(refusal({ [VERSION]: '2027-01-01', [CAPABILITIES]: {} })).toMatchObject({ code: -32022 });
      expect(refusal({ [VERSION]: '2027-01-01' })).toEqual(missing(CAPABILITIES));
    } finally {
      headers['mcp-protocol-version'] = '2026-07-28';
    }
  });

  it('checks the headers first, and the version header against the _meta version', () => {
    expect(refusal({ [VERSION]: '2025-11-25', [CAPABILITIES]: {} })).toMatchObject({ code: -32020 });
  });
});

describe('validateModernRequest: mirrored headers', () => {
  const META = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const declared = new Map([['route', [{ name: 'Region', path: ['region'], type: 'string' as const }]]]);
  const refusal = (headers: Record<string, string>, params: Record<string, unknown>) => {
    const all: Record<string, string> = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      ...headers,
    };
    const req = { get: (name: string) => all[name.toLowerCase()] } as unknown as Request;
    try {
      validateModernRequest(req, 'tools/call', { _meta: META, ...params }, declared);
    } catch (error) {
      const { code, message, data } = error as RpcError;
      return { code, message, data };
    }
    return undefined;
  };
  const encoded = (value: string) => `=?base64?${Buffer.from(value).toString('base64')}?=`;

  it('decodes an encoded Mcp-Name and refuses one that is not valid Base64', () => {
    expect(refusal({ 'mcp-name': encoded('grüße') }, { name: 'grüße' })).toBeUndefined();
    expect(refusal({ 'mcp-name': '=?base64?Z3JlZXQ?=' }, { name: 'greet' })).toEqual({
      code: -32020,
      message: 'Invalid header value: Mcp-Name is not valid Base64 inside =?base64?...?=',
      data: { header: 'Mcp-Name' },
    });
  });

  it("checks the named tool's Mcp-Param headers against its arguments, after Mcp-Name", () => {
    const call = { name: 'route', arguments: { region: 'eu-west1' } };
    expect(refusal({ 'mcp-name': 'route', 'mcp-param-region': 'eu-west1' }, call)).toBeUndefined();
    expect(refusal({ 'mcp-name': 'route' }, call)).toMatchObject({
      code: -32020,
      data: { header: 'Mcp-Param-Region', path: 'params.arguments.region' },
    });
    expect(refusal({ 'mcp-name': 'other' }, call)).toMatchObject({
      code: -32020,
      message: expect.stringContaining('Mcp-Name'),
    });
  });

  it('leaves tools that declare nothing, unknown tools and other methods alone', () => {
    expect(refusal({ 'mcp-name': 'greet' }, { name: 'greet', arguments: { region: 'x' } })).toBeUndefined();
  });
});
