// Pins the Mcp-Param-* check against the body (SEP-2243 "Server Behavior for Custom Headers"):
// what each parameter's value needs of its header, and the error (code, header, field) otherwise.
import type { ParamHeader } from './param-header-declarations';
import { checkParamHeaders } from './param-headers';
import type { RpcError } from './rpc-error';

const DECLARED: ParamHeader[] = [
  { name: 'Region', path: ['region'], type: 'string' },
  { name: 'Priority', path: ['priority'], type: 'integer' },
  { name: 'Verbose', path: ['verbose'], type: 'boolean' },
  { name: 'Tenant', path: ['target', 'tenant'], type: 'string' },
];

/** The refusal of `args` sent with `headers` (names as the client wrote them), or undefined. */
function refusal(args: unknown, headers: Record<string, string>) {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  try {
    checkParamHeaders(DECLARED, args, (name) => lower[name.toLowerCase()]);
  } catch (error) {
    const { code, message, data } = error as RpcError;
    return { code, message, data };
  }
  return undefined;
}

describe('checkParamHeaders', () => {
  it('accepts headers that mirror the values, decoded, integers compared as numbers', () => {
    const args = { region: 'Hello', priority: 42, verbose: false, target: { tenant: 'Hello, 世界' }, query: 'q' };
    expect(
      refusal(args, {
        'Mcp-Param-Region': '=?base64?SGVsbG8=?=',
        'mcp-param-priority': '42.0',
        'MCP-PARAM-VERBOSE': 'false',
        'Mcp-Param-Tenant': '=?base64?SGVsbG8sIOS4lueVjA==?=',
        'Mcp-Param-Query': 'not declared: ignored',
      }),
    ).toBeUndefined();
    expect(
      refusal({ region: 'SGVsbG8=', priority: -7 }, { 'Mcp-Param-Region': 'SGVsbG8=', 'Mcp-Param-Priority': '-7' }),
    ).toBeUndefined();
  });

  it('expects no header for a value that is absent or null', () => {
    expect(refusal({}, {})).toBeUndefined();
    expect(refusal({ region: null, target: 'not an object' }, {})).toBeUndefined();
    expect(refusal(undefined, {})).toBeUndefined();
    expect(refusal({ constructor: 'x' }, {})).toBeUndefined();
  });

  it('refuses a value whose header is missing', () => {
    expect(refusal({ region: 'test-value' }, {})).toEqual({
      code: -32020,
      message: 'Missing required header: Mcp-Param-Region (params.arguments.region has a value)',
      data: { header: 'Mcp-Param-Region', path: 'params.arguments.region' },
    });
    expect(refusal({ target: { tenant: '' } }, {})).toMatchObject({
      data: { header: 'Mcp-Param-Tenant', path: 'params.arguments.target.tenant' },
    });
  });

  it('refuses a header that disagrees with the value', () => {
    expect(refusal({ region: 'Hello' }, { 'Mcp-Param-Region': 'SGVsbG8=' })).toEqual({
      code: -32020,
      message:
        "Header mismatch: Mcp-Param-Region header value 'SGVsbG8=' does not match params.arguments.region value 'Hello'",
      data: { header: 'Mcp-Param-Region', path: 'params.arguments.region' },
    });
    expect(refusal({ priority: 42 }, { 'Mcp-Param-Priority': '0x2A' })).toMatchObject({ code: -32020 });
    expect(refusal({ priority: 42 }, { 'Mcp-Param-Priority': '43' })).toMatchObject({ code: -32020 });
    expect(refusal({ verbose: true }, { 'Mcp-Param-Verbose': 'True' })).toMatchObject({ code: -32020 });
  });

  it('refuses an invalid encoding, and a header sent for a value that is not there', () => {
    for (const bad of ['=?base64?SGVsbG8?=', '=?base64?SGVs!!!bG8=?=']) {
      expect(refusal({ region: 'Hello' }, { 'Mcp-Param-Region': bad })).toEqual({
        code: -32020,
        message: 'Invalid header value: Mcp-Param-Region is not valid Base64 inside =?base64?...?=',
        data: { header: 'Mcp-Param-Region' },
      });
    }
    expect(refusal({}, { 'Mcp-Param-Region': 'eu' })).toEqual({
      code: -32020,
      message: 'Header mismatch: Mcp-Param-Region is sent but params.arguments.region has no value',
      data: { header: 'Mcp-Param-Region', path: 'params.arguments.region' },
    });
  });

  it('refuses values a header cannot mirror as invalid params, naming the field', () => {
    expect(refusal({ region: { nested: 1 } }, { 'Mcp-Param-Region': 'x' })).toMatchObject({
      code: -32602,
      data: { path: 'params.arguments.region' },
    });
    expect(refusal({ priority: 2 ** 60 }, { 'Mcp-Param-Priority': String(2 ** 60) })).toMatchObject({
      code: -32602,
      data: { path: 'params.arguments.priority' },
    });
  });
});
