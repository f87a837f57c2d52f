/**
 * Lets a process that runs compiled JavaScript (the installed `durable-mcp` CLI) load a TypeScript
 * handler module as it is: tsx's loader hooks, for `import()` and for `require()`.
 */
let registered: Promise<void> | undefined;

export function registerTypeScript(): Promise<void> {
  // tsx's package entry registers both hooks as a side effect; it declares no types.
  const loader: string = 'tsx';
  registered ??= import(loader).then(() => undefined);
  return registered;
}
