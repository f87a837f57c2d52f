/**
 * A start that failed for a reason the operator can act on (a server it could not reach, a
 * folder the embedded Postgres cannot enter): its message is one line saying what and which
 * variable or folder to check, and a process main prints just that line, never a stack trace.
 * Anything else that fails a start is a fault, reported with its stack.
 */
export class StartError extends Error {
  override readonly name: string = 'StartError';
}

/** How a process main reports a failed start: the one line of a `StartError`, the stack otherwise. */
export function startFailure(error: unknown): string {
  if (error instanceof StartError) return error.message;
  return (error as Error)?.stack ?? String(error);
}

/**
 * How the `durable-mcp` command reports a failure: one line, always (a user's command is not the
 * place for a stack trace). `DEBUG_STACKS=1` adds the stack of an unexpected one, for a bug report.
 */
export function commandFailure(error: unknown): string {
  if (error instanceof StartError) return error.message;
  const line = ((error as Error)?.message ?? String(error)).split('\n')[0]!;
  return process.env.DEBUG_STACKS === '1' ? `${line}\n${(error as Error)?.stack ?? ''}` : line;
}
