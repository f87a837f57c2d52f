/**
 * The JSON-RPC error a legacy client answered a server-to-client request with (for
 * example -32601 when it cannot elicit), if that is what came back under `key`. An error is an
 * answer: the handler decides what it means, typically to stop asking for it.
 */
export interface AnswerError {
  code: number;
  message: string;
  data?: unknown;
}

export function answerError(responses: Record<string, unknown> | undefined, key: string): AnswerError | undefined {
  const entry = responses?.[key] as { error?: Partial<AnswerError> } | undefined;
  const error = entry?.error;
  if (!error || typeof error.code !== 'number') return undefined;
  return {
    code: error.code,
    message: typeof error.message === 'string' ? error.message : '',
    ...(error.data !== undefined ? { data: error.data } : {}),
  };
}
