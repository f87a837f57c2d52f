/**
 * What a client is told when its `tools/call` arguments break the tool's `inputSchema`: a
 * `CallToolResult` with `isError: true` (2025-11-25 and 2026-07-28 server/tools "Error Handling",
 * SEP-1303: input validation errors are tool execution errors, so the model can correct itself)
 * whose text names each failing field path.
 *
 * The SDK's validator reports failures as one Ajv `errorsText` line (`data/a/b must be string,
 * data must have required property 'x'`); this turns it into `arguments.a.b: must be string` and
 * `arguments.x: is required`. The answer stays small whatever the client sent: at most
 * MAX_REPORTED_PROBLEMS lines, each cut at MAX_PROBLEM_CHARS.
 */

export const MAX_REPORTED_PROBLEMS = 10;
export const MAX_PROBLEM_CHARS = 200;

/** Ajv's name for the validated value: every entry of `errorsText` starts with it. */
const DATA_VAR = 'data';
/** Entries are joined by ", "; only a ", " followed by the next entry's `data` prefix splits. */
const ENTRY_SEPARATOR = new RegExp(`, (?=${DATA_VAR}(?:/| ))`);
const REQUIRED = /^must have required property '(.*)'$/;

/** JSON Pointer segments (RFC 6901) as a dotted path under `arguments`. */
function dottedPath(pointer: string, extra?: string): string {
  const segments = pointer === '' ? [] : pointer.slice(1).split('/');
  const decoded = segments.map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'));
  return ['arguments', ...decoded, ...(extra !== undefined ? [extra] : [])].join('.');
}

function truncate(text: string): string {
  return text.length <= MAX_PROBLEM_CHARS ? text : `${text.slice(0, MAX_PROBLEM_CHARS - 1)}…`;
}

/** One `path: problem` line per failure in an Ajv `errorsText` message. */
export function argumentProblems(errorsText: string): string[] {
  return errorsText.split(ENTRY_SEPARATOR).map((entry) => {
    const rest = entry.startsWith(DATA_VAR) ? entry.slice(DATA_VAR.length) : entry;
    const space = rest.indexOf(' ');
    const pointer = space === -1 ? rest : rest.slice(0, space);
    const message = space === -1 ? 'is invalid' : rest.slice(space + 1);
    if (!pointer.startsWith('/') && pointer !== '') return truncate(`arguments: ${entry}`);
    const required = REQUIRED.exec(message);
    return truncate(
      required ? `${dottedPath(pointer, required[1])}: is required` : `${dottedPath(pointer)}: ${message}`,
    );
  });
}

/** The tool result that answers a call whose arguments failed validation (never the handler's). */
export function invalidArgumentsResult(tool: string, problems: readonly string[]): Record<string, unknown> {
  const shown = problems.slice(0, MAX_REPORTED_PROBLEMS);
  const more = problems.length - shown.length;
  const lines = [
    `Invalid arguments for tool ${truncate(tool)}:`,
    ...shown,
    ...(more > 0 ? [`(and ${more} more)`] : []),
  ];
  return { content: [{ type: 'text', text: lines.join('\n') }], isError: true };
}
