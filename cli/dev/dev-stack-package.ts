/**
 * `@durable-mcp/dev`, the package that carries the development stack (embedded Postgres, the
 * Temporal CLI dev server when none is installed, TypeScript modules loaded as they are), so that a
 * production install of durable-mcp carries none of it. It is looked for beside this package first
 * (installed together, or this repository's workspace), then in the user's project (an npx or global
 * durable-mcp run there); missing, the command that needs it says in one line how to install it.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { StartError } from '../../lib/start-error';

export type DevStackPackage = typeof import('@durable-mcp/dev');

export const DEV_STACK_PACKAGE = '@durable-mcp/dev';

let loaded: DevStackPackage | undefined;

const isMissing = (error: unknown): boolean =>
  ['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND'].includes((error as { code?: string }).code ?? '') &&
  String((error as Error).message).includes(DEV_STACK_PACKAGE);

/** The package, or a `StartError` naming `purpose` and the install command. */
export function loadDevStack(purpose: string): DevStackPackage {
  if (loaded) return loaded;
  try {
    // Beside this package (installed together, or this repository's workspace, where it runs from source).
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand: it may be absent
    loaded = require('@durable-mcp/dev') as DevStackPackage;
  } catch (error) {
    if (!isMissing(error)) throw error;
    // Where the user runs the command: their project's devDependencies (an npx or global durable-mcp).
    try {
      loaded = createRequire(path.join(process.cwd(), 'package.json'))(DEV_STACK_PACKAGE) as DevStackPackage;
    } catch (inProject) {
      if (!isMissing(inProject)) throw inProject;
      throw new StartError(
        `${purpose} needs ${DEV_STACK_PACKAGE}, the development stack a production install leaves out: npm install --save-dev ${DEV_STACK_PACKAGE}`,
      );
    }
  }
  return loaded;
}
