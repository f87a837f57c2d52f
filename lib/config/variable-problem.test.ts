import { purposeOf } from './variable-problem';

it('reads the first clause of a documentation, without Markdown, and not a ; inside parentheses', () => {
  expect(purposeOf("Postgres for the service's records; the statements every round makes are named")).toBe(
    "Postgres for the service's records",
  );
  expect(purposeOf('the keys (`k1:...`; rotate) that encrypt [payloads](security.md#x); the first encrypts')).toBe(
    'the keys (k1:...; rotate) that encrypt payloads',
  );
  expect(purposeOf("the API's listen port")).toBe("the API's listen port");
});
