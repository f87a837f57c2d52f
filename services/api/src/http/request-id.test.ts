import { requestIdFor } from './request-id';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('requestIdFor', () => {
  it.each([
    'a3f1c2d4-0b9e-4c1a-8f2e-3d4c5b6a7f80',
    '01HZX3V6Q9W8T2M5N7K4J1B0C9',
    'req-42',
    'Root=1-67891233-abcdef012345678912345678',
    'dGVzdC1pZA==',
    'svc.gateway:7f3a/2~b+c_d',
    'x'.repeat(128),
  ])('keeps an id it can carry safely: %s', (id) => {
    expect(requestIdFor(id)).toBe(id);
  });

  it.each([
    ['none', undefined],
    ['empty', ''],
    ['too long', 'x'.repeat(129)],
    ['a space', 'two words'],
    ['a comma (two headers joined)', 'abc, def'],
    ['a quote that could end a JSON string', 'abc"def'],
    ['a line break', 'abc\ndef'],
    ['a control character', 'abc\u0007def'],
    ['a non-ASCII letter', 'réquête'],
    ['markup', '<script>'],
  ])('replaces %s with a fresh UUID', (_what, header) => {
    const id = requestIdFor(header);
    expect(id).toMatch(UUID);
    expect(requestIdFor(header)).not.toBe(id);
  });
});
