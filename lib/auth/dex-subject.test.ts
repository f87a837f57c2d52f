// Dex's encoded subjects, with values taken from tokens a Dex built from source issued
// (test/answers/dex.int.test.ts runs one): a bot's client-credentials token and a person's.
import { isDexClientSubject } from './dex-subject';
import { serviceTokenOf } from './token-claims';

/** `sub` of Dex's client-credentials token for the client `approval-bot`: `{ 1: "approval-bot" }`. */
const BOT_SUB = 'CgxhcHByb3ZhbC1ib3Q';
/** `sub` of a person signed in with Dex's password database (connector `local`). */
const PERSON_SUB = 'CiQxMTExMTExMS0xMTExLTExMTEtMTExMS0xMTExMTExMTExMTESBWxvY2Fs';

describe('isDexClientSubject', () => {
  it('knows a client-credentials subject as its client’s, and no other client’s', () => {
    expect(isDexClientSubject(BOT_SUB, 'approval-bot')).toBe(true);
    expect(isDexClientSubject(BOT_SUB, 'approval-bo')).toBe(false);
    expect(isDexClientSubject(BOT_SUB, 'approval-bot2')).toBe(false);
    expect(isDexClientSubject(BOT_SUB, '')).toBe(false);
  });

  it('never takes a person’s subject (it names a connector) for a client’s', () => {
    expect(isDexClientSubject(PERSON_SUB, '11111111-1111-1111-1111-111111111111')).toBe(false);
  });

  it('takes the empty connector written out, and a client id longer than 127 bytes (a two-byte length)', () => {
    const long = 'c'.repeat(200);
    const encoded = (connector: number[]) =>
      Buffer.concat([Buffer.from([0x0a, 0xc8, 0x01]), Buffer.from(long), Buffer.from(connector)]).toString('base64url');
    expect(isDexClientSubject(encoded([]), long)).toBe(true);
    expect(isDexClientSubject(encoded([0x12, 0x00]), long)).toBe(true);
    expect(isDexClientSubject(encoded([0x12, 0x01, 0x78]), long)).toBe(false);
  });

  it('refuses what is not exactly the encoding: padded, with a byte more, a subject in plain text', () => {
    expect(isDexClientSubject(`${BOT_SUB}=`, 'approval-bot')).toBe(false);
    expect(isDexClientSubject(`${BOT_SUB}A`, 'approval-bot')).toBe(false);
    expect(isDexClientSubject('approval-bot', 'approval-bot')).toBe(false);
  });
});

describe('serviceTokenOf, for Dex’s tokens', () => {
  it('takes a client-credentials token (its subject encodes its azp) for a service’s', () => {
    expect(serviceTokenOf({ sub: BOT_SUB, azp: 'approval-bot', aud: ['https://mcp.example.com/answers/api'] })).toBe(
      true,
    );
  });

  it('takes a person’s token for a person’s, whatever client holds it, and a bot’s subject held by another client too', () => {
    expect(serviceTokenOf({ sub: PERSON_SUB, azp: 'mcp-desk' })).toBe(false);
    expect(serviceTokenOf({ sub: BOT_SUB, azp: 'mcp-desk' })).toBe(false);
    expect(serviceTokenOf({ sub: BOT_SUB })).toBe(false);
  });
});
