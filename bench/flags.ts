/**
 * Command-line flags for the bench scripts: `--name value`, `--name=value` and boolean `--name`,
 * each flag known in advance (an unknown one is an error, not a silent default), integers checked
 * against a minimum and read from the flag or, failing that, an environment variable. Pure.
 */

/** The flags given, by name; a boolean flag's value is `'true'`. */
export function parseFlags(
  argv: readonly string[],
  booleanFlags: readonly string[],
  valueFlags: readonly string[],
): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(argv[i]!);
    if (!m) throw new Error(`unexpected argument ${argv[i]}`);
    const flag = m[1]!;
    if (booleanFlags.includes(flag)) {
      if (m[2] !== undefined) throw new Error(`--${flag} takes no value`);
      args.set(flag, 'true');
    } else if (valueFlags.includes(flag)) {
      const value = m[2] ?? argv[++i];
      if (value === undefined) throw new Error(`--${flag} needs a value`);
      args.set(flag, value);
    } else {
      throw new Error(`unknown option --${flag}`);
    }
  }
  return args;
}

/** Reads an integer option: the flag, else the variable, else the fallback; below `min` is an error. */
export function integerOption(args: ReadonlyMap<string, string>, env: Record<string, string | undefined>) {
  return (flag: string, variable: string, fallback: number, min: number): number => {
    const raw = args.get(flag) ?? env[variable];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw.trim()) || Number(raw) < min)
      throw new Error(`--${flag} / ${variable} must be an integer >= ${min}, got "${raw}"`);
    return Number(raw);
  };
}

/** A comma-separated choice among `allowed`, returned in `allowed`'s order whatever order it was given in. */
export function list<T extends string>(raw: string, allowed: readonly T[], what: string): T[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items)
    if (!allowed.includes(item as T)) throw new Error(`unknown ${what} "${item}" (one of ${allowed.join(', ')})`);
  if (items.length === 0) throw new Error(`--${what}s names none`);
  return allowed.filter((a) => items.includes(a));
}
