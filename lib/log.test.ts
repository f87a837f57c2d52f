import { createHash } from 'node:crypto';
import { sessionRef } from './log';

describe('sessionRef', () => {
  it('names a session by the first 12 hex digits of its sha256, never by the id', () => {
    const id = '6f1d3c1e-8a52-4c1e-9a53-0d6f7b2a9e41';
    const ref = sessionRef(id);
    expect(ref).toEqual({ session: createHash('sha256').update(id).digest('hex').slice(0, 12) });
    expect(ref.session).toMatch(/^[0-9a-f]{12}$/);
    expect(JSON.stringify(ref)).not.toContain(id);
  });
});
