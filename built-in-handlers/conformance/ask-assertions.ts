/** Assertions shared by the conformance handlers' unit tests (jest globals; test use only). */
export type Ask = {
  resultType: string;
  inputRequests: Record<string, { method: string; params?: Record<string, unknown> }>;
  requestState?: string;
};

/** The result is an ask for exactly these keys. */
export function expectAsk(result: unknown, keys: string[]): Ask {
  const ask = result as Ask;
  expect(ask.resultType).toBe('input_required');
  expect(Object.keys(ask.inputRequests).sort()).toEqual([...keys].sort());
  return ask;
}

/** The result is complete, with text first; returns the text. */
export function expectText(result: unknown): string {
  const { resultType, content } = result as { resultType?: string; content?: Array<{ type: string; text?: string }> };
  expect(resultType).toBeUndefined();
  expect(content?.[0]?.type).toBe('text');
  return content?.[0]?.text ?? '';
}
