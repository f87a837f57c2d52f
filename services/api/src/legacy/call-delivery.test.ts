import { leaseAfter } from './call-delivery';

describe('leaseAfter', () => {
  it('gives the lease up when the client went away or the call ended, so a GET stream takes it over at once', () => {
    expect(leaseAfter('stopped')).toBe('release');
    expect(leaseAfter('final')).toBe('release');
  });

  it('keeps it for the resumption the client was told to make when the server ended the stream', () => {
    expect(leaseAfter('closed')).toBe('hold-for-resume');
    expect(leaseAfter('drained')).toBe('hold-for-resume');
  });
});
