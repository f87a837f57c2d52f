/**
 * Who serves a name (a tool's or prompt's name, a resource's URI, a template's `uriTemplate`) when
 * several list it: the first holder keeps it. The local set comes first (its keys are `taken`),
 * then each upstream in declaration order, each in its own listing's order; a later holder's entry
 * is left out, and `shadowed` says so. Pure but for `shadowed`.
 */
export interface Holder<H> {
  upstream: string;
  handlers: ReadonlyArray<H>;
}

export function firstHolders<H>(
  holders: ReadonlyArray<Holder<H>>,
  keyOf: (handler: H) => string,
  taken: ReadonlySet<string>,
  shadowed: (upstream: string, key: string) => void,
  /** An entry not served at all (a tool every call of which a policy denies): it takes no key. */
  skip: (upstream: string, index: number) => boolean = () => false,
): H[] {
  const keys = new Set(taken);
  const served: H[] = [];
  for (const { upstream, handlers } of holders)
    for (const [index, handler] of handlers.entries()) {
      const key = keyOf(handler);
      if (keys.has(key)) {
        shadowed(upstream, key);
        continue;
      }
      if (skip(upstream, index)) continue;
      keys.add(key);
      served.push(handler);
    }
  return served;
}
