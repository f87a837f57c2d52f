import { ProtocolError as SdkProtocolError } from '@modelcontextprotocol/server';
import { isProtocolError, ProtocolError } from './protocol-error';

describe('isProtocolError', () => {
  it('recognises an error of this copy of the package', () => {
    expect(isProtocolError(new ProtocolError(-32002, 'no such order', { order: 'A1' }))).toBe(true);
  });

  it('recognises one thrown by another copy of the package (the brand is a global symbol)', () => {
    const fromAnotherCopy = Object.assign(new Error('no such order'), {
      code: -32002,
      [Symbol.for('@durable-mcp/handlers.ProtocolError')]: true,
    });
    expect(fromAnotherCopy instanceof ProtocolError).toBe(false);
    expect(isProtocolError(fromAnotherCopy)).toBe(true);
  });

  it("recognises the official SDK's ProtocolError, so a handler may throw either", () => {
    const sdk = new SdkProtocolError(-32602, 'no such order', { order: 'A1' });
    expect(isProtocolError(sdk)).toBe(true);
    expect(sdk).toMatchObject({ code: -32602, message: 'no such order', data: { order: 'A1' } });
  });

  it.each([
    ['a plain error', new Error('boom')],
    ['an error with a code but no brand', Object.assign(new Error('x'), { code: -32002 })],
    ['a branded object without a numeric code', { [Symbol.for('@durable-mcp/handlers.ProtocolError')]: true }],
    ['a string', 'ProtocolError'],
    ['null', null],
  ])('refuses %s', (_label, value) => {
    expect(isProtocolError(value)).toBe(false);
  });
});
