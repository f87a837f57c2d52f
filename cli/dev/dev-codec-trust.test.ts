import { devCodecTrustEnvironment } from './dev-codec-trust';

describe("the development stack's codec endpoint", () => {
  it('trusts loopback while the API listens there', () => {
    expect(devCodecTrustEnvironment({})).toEqual({ CODEC_TRUST_LOOPBACK: 'true' });
    expect(devCodecTrustEnvironment({ HOST: '::1' })).toEqual({ CODEC_TRUST_LOOPBACK: 'true' });
    expect(devCodecTrustEnvironment({ HOST: 'localhost' })).toEqual({ CODEC_TRUST_LOOPBACK: 'true' });
  });

  it('keeps its sign-in beyond loopback, behind a proxy, in production, or when told either way', () => {
    expect(devCodecTrustEnvironment({ HOST: '0.0.0.0' })).toEqual({});
    expect(devCodecTrustEnvironment({ HOST: '192.168.1.20' })).toEqual({});
    expect(devCodecTrustEnvironment({ TRUST_PROXY: 'loopback' })).toEqual({});
    expect(devCodecTrustEnvironment({ NODE_ENV: 'production' })).toEqual({});
    expect(devCodecTrustEnvironment({ CODEC_TRUST_LOOPBACK: 'false' })).toEqual({});
  });
});
