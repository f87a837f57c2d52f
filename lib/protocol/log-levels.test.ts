// Pins the log-level filter: RFC 5424 order, and no logs at all for a client that asked for none.
import { passesLogLevel } from './log-levels';

describe('passesLogLevel', () => {
  it('passes messages at or above the minimum', () => {
    expect(passesLogLevel('info', 'info')).toBe(true);
    expect(passesLogLevel('error', 'warning')).toBe(true);
  });

  it('drops messages below the minimum', () => {
    expect(passesLogLevel('debug', 'info')).toBe(false);
    expect(passesLogLevel('notice', 'error')).toBe(false);
  });

  it('sends nothing when the client set no level', () => {
    expect(passesLogLevel('emergency', undefined)).toBe(false);
  });
});
