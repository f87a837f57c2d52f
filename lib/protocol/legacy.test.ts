// Pins legacy version negotiation: a supported request is echoed, anything else gets the latest.
import { LATEST_LEGACY_VERSION, negotiateVersion } from './legacy';

describe('negotiateVersion', () => {
  it.each(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])('accepts %s as requested', (version) => {
    expect(negotiateVersion(version)).toBe(version);
  });

  it.each(['2026-07-28', '1999-01-01', undefined, 42])('answers %p with the latest legacy version', (requested) => {
    expect(negotiateVersion(requested)).toBe(LATEST_LEGACY_VERSION);
  });
});
