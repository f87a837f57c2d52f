/**
 * The tool names MCP allows (2025-11-25 and 2026-07-28, "Tool names"): 1 to 128 characters, each
 * an ASCII letter, a digit, `_`, `-` or `.`. A name outside them (`has space`, `refund/order`,
 * `réfund`) is one some clients refuse or rewrite, so a call by the name the author chose would
 * not reach the tool: it is refused when the handler set is checked, before anything serves it.
 */
export const TOOL_NAME_RULE = '1-128 characters of A-Z a-z 0-9 _ - . only';

const ALLOWED = /^[A-Za-z0-9_.-]$/;
const MAX_LENGTH = 128;

/** Why `name` is not a tool name MCP allows, or undefined when it is one. */
export function toolNameProblem(name: string): string | undefined {
  if (name.length === 0) return `a tool name is ${TOOL_NAME_RULE}, not empty`;
  if (name.length > MAX_LENGTH) return `a tool name is ${TOOL_NAME_RULE}; this one has ${name.length}`;
  const bad = [...new Set([...name].filter((char) => !ALLOWED.test(char)))];
  if (bad.length === 0) return undefined;
  return `a tool name is ${TOOL_NAME_RULE}; "${name}" has ${bad.map(describe).join(', ')}`;
}

const describe = (char: string) =>
  char === ' ' ? 'a space' : /\s/.test(char) ? `whitespace (${JSON.stringify(char)})` : `"${char}"`;
