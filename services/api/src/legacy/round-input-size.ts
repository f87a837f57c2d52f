/**
 * The size a handshake-era round's input reaches if one more answer is taken: the answer plus
 * those already taken for the round's other keys, serialized as they will travel to the workflow
 * (one round's answers go into one Temporal payload, which has a hard size limit).
 */
export function roundInputBytes(
  incoming: unknown,
  taken: ReadonlyArray<{ key: string; response: unknown }>,
  key: string,
): number {
  const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value ?? null), 'utf8');
  return taken
    .filter((answer) => answer.key !== key)
    .reduce((sum, answer) => sum + bytes(answer.response), bytes(incoming));
}
