// Pins the non-ASCII header sentinel decoding (SEP-2243) and modern-era recognition.
import { decodeHeaderValue, hasModernMeta } from './validate-request';

describe('decodeHeaderValue', () => {
  it('decodes the =?base64?...?= sentinel', () => {
    expect(decodeHeaderValue(`=?base64?${Buffer.from('grüße').toString('base64')}?=`)).toBe('grüße');
  });

  it('leaves a plain value alone', () => {
    expect(decodeHeaderValue('greet')).toBe('greet');
  });
});

describe('hasModernMeta', () => {
  it('recognises the 2026-07-28 envelope by its protocol version key', () => {
    expect(hasModernMeta({ _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } })).toBe(true);
  });

  it('does not take other params for it', () => {
    expect(hasModernMeta({ protocolVersion: '2025-11-25' })).toBe(false);
    expect(hasModernMeta(undefined)).toBe(false);
  });
});
