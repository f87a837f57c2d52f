/**
 * Lets a TypeScript handler module load in a process that runs compiled JavaScript (the installed
 * `durable-mcp` CLI): tsx's loader hooks, from the development stack, registered once. Only when the
 * module is TypeScript: a built `.js` module loads as it is, with no development package installed.
 */
import { loadDevStack } from './dev/dev-stack-package';

const TYPESCRIPT = /\.(ts|mts|cts|tsx)$/;

/** Whether `specifier` names a TypeScript file (a package name never does). */
export const isTypeScriptModule = (specifier: string): boolean => TYPESCRIPT.test(specifier);

export async function allowTypeScriptModule(specifier: string): Promise<void> {
  if (!isTypeScriptModule(specifier)) return;
  // Already under tsx (the CLI run from source, or `node --import tsx`): its hooks are in place.
  if (process.execArgv.some((arg) => arg.includes('tsx'))) return;
  await loadDevStack(`the TypeScript module ${specifier}`).registerTypeScript();
}
