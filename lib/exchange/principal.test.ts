// Pins the principal's stable key: readable, one per caller, bounded, and the anonymous one.
import {
  ANONYMOUS_PRINCIPAL,
  MAX_PRINCIPAL_ID_LENGTH,
  detailsOf,
  principalId,
  personIdOf,
  principalOf,
} from './principal';

const ISSUER = 'https://auth.example.com';

describe('principalId', () => {
  it('names the issuer and the subject, and the client only when it is not the subject', () => {
    expect(principalId(ISSUER, 'alice', undefined)).toBe('https://auth.example.com|alice');
    expect(principalId(ISSUER, 'alice', 'alice')).toBe('https://auth.example.com|alice');
    expect(principalId(ISSUER, 'alice', 'calendar-app')).toBe('https://auth.example.com|alice|calendar-app');
  });

  it('keeps callers apart whatever their subject holds (a | cannot forge another key)', () => {
    const a = principalId(ISSUER, 'alice|x', 'y');
    const b = principalId(ISSUER, 'alice', 'x|y');
    expect(a).not.toBe(b);
    expect(a).toBe('https://auth.example.com|alice%7Cx|y');
  });

  it('tells issuers apart for the same subject', () => {
    expect(principalId('https://a.example', 'alice', undefined)).not.toBe(
      principalId('https://b.example', 'alice', undefined),
    );
  });

  it('bounds a huge subject by its digest, keeping the issuer readable and the key stable', () => {
    const id = principalId(ISSUER, 's'.repeat(2000), undefined);
    expect(id.length).toBeLessThanOrEqual(MAX_PRINCIPAL_ID_LENGTH);
    expect(id).toMatch(/^https:\/\/auth\.example\.com\|sha256:[0-9a-f]{64}$/);
    expect(principalId(ISSUER, 's'.repeat(2000), undefined)).toBe(id);
    expect(principalId(ISSUER, 's'.repeat(2001), undefined)).not.toBe(id);
  });

  it('bounds a key whose issuer alone is too long by its digest only', () => {
    const id = principalId(`https://auth.example.com/${'p'.repeat(300)}`, 'alice', undefined);
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('principalOf', () => {
  it('rebuilds a principal from what an exchange recorded', () => {
    const details = { subject: 'alice', issuer: ISSUER, scopes: ['mcp'] };
    expect(principalOf('key', details)).toEqual({ id: 'key', ...details });
    expect(detailsOf({ id: 'key', ...details })).toEqual(details);
  });

  it('gives an exchange recorded with a key only that key as its subject', () => {
    expect(principalOf('anonymous')).toEqual(ANONYMOUS_PRINCIPAL);
  });
});

describe('personIdOf', () => {
  const issuer = 'https://id.example.com';
  it('keys a caller as the person a sign-in of theirs is keyed by, whatever its client', () => {
    const viaClient = { id: principalId(issuer, 'alice', 'mcp-app'), issuer, subject: 'alice', clientId: 'mcp-app' };
    expect(personIdOf(viaClient)).toBe(principalId(issuer, 'alice', undefined));
    expect(personIdOf({ ...viaClient, id: principalId(issuer, 'alice', 'other'), clientId: 'other' })).toBe(
      personIdOf(viaClient),
    );
  });

  it('keeps a client acting for itself, and a caller without an issuer, as their own key', () => {
    const client = { id: principalId(issuer, 'bot', 'bot', true), issuer, subject: 'bot', clientId: 'bot' };
    expect(personIdOf(client)).toBe(client.id);
    expect(personIdOf(client)).not.toBe(principalId(issuer, 'bot', undefined));
    expect(personIdOf({ id: 'anonymous', subject: 'anonymous' })).toBe('anonymous');
  });
});
