/**
 * Client strings that an error message repeats back (a method name, a target) are cut short:
 * error replies are stored on legacy streams and logged, so echoing them whole would let a
 * client grow our records by whatever it sends.
 */
export const MAX_ECHOED_CHARS = 128;

export function echoed(text: string, max = MAX_ECHOED_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
