/**
 * Lets a TypeScript handler module load in a process that runs compiled JavaScript (the installed
 * `durable-mcp` CLI): tsx's loader hooks, for `import()` and for `require()`, registered once.
 * Only when the module is TypeScript: a built `.js` module loads as it is.
 */
const TYPESCRIPT = /\.(ts|mts|cts|tsx)$/;

let registered = false;

/** Whether `specifier` names a TypeScript file (a package name never does). */
export const isTypeScriptModule = (specifier: string): boolean => TYPESCRIPT.test(specifier);

export async function allowTypeScriptModule(specifier: string): Promise<void> {
  if (registered || !isTypeScriptModule(specifier)) return;
  // Already under tsx (the CLI run from source, or `node --import tsx`): its hooks are in place.
  if (process.execArgv.some((arg) => arg.includes('tsx'))) return;
  registered = true;
  const loader: string = 'tsx'; // the package's side-effect entry: it declares no types
  await import(loader);
}
