/**
 * The handler set a process serves, from what HANDLERS (or HANDLER_SET) names: a built-in set by
 * its name, else a module: a path (absolute, or relative to the working directory) or a package
 * name, resolved from the working directory the way `require.resolve` resolves it.
 *
 * The module exports its handler set (an object with `tools`, `name` and, if it has them, `prompts`,
 * `resources` and `resourceTemplates`: a `HandlerSet`) as `handlers`, or as its default export. Both the API (the
 * catalog, the schemas and argument checks) and the worker (the rounds) load it through
 * `loadHandlers`, and every set, built-in ones included, passes the same start-up check
 * (handler-set-check.ts). A module that cannot be found, fails to load, exports no handler set or
 * declares an invalid one is a `HandlerModuleError` whose message names the module's file and what
 * is at fault; the process mains print it and exit (`loadHandlersOrExit`).
 *
 * What loads comes with its version (handler-version.ts), which every exchange the API starts
 * records, and with where it came from, for the start-up log.
 */
import { builtInHandlerSet, isBuiltInHandlerSet } from '../../built-in-handlers';
import type { HandlerSet } from '@durable-mcp/handlers';
import { checkHandlerSet, InvalidHandlerSet } from './handler-set-check';
import { builtInHandlerVersion, moduleHandlerVersion } from '../../lib/handler-set/handler-version';
import type { ListChanges } from '../../lib/handler-set/list-changes';

/** A handler set as a process serves it. */
export interface LoadedHandlers {
  set: HandlerSet;
  /** `demo@0.1.0`, `acme-tools@1.2.0` or `tools.js@sha256:1a2b3c4d5e6f`: what each exchange records. */
  version: string;
  /** Where it came from: `built-in handler set demo`, or `handler module /abs/path/tools.js`. */
  origin: string;
  /** Set when its tools, prompts and resources can change while the process runs (the gateway's upstreams): each change, told. */
  listChanges?: ListChanges;
}

export class HandlerModuleError extends Error {
  override readonly name = 'HandlerModuleError';
}

/** The file `specifier` names, resolved from `cwd`. */
function resolveModule(specifier: string, cwd: string): string {
  try {
    return require.resolve(specifier, { paths: [cwd] });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code !== 'MODULE_NOT_FOUND') throw new HandlerModuleError(`handler module ${specifier}: ${message(error)}`);
    const isPath = specifier.startsWith('.') || specifier.startsWith('/');
    throw new HandlerModuleError(
      isPath
        ? `handler module ${specifier}: no such file (resolved from ${cwd})`
        : `handler module ${specifier}: no such package (resolved from ${cwd}; a file is named by a path, ./${specifier})`,
    );
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Why `file` did not load, in one line: the module's own error, without the loader's stack. */
function loadFailure(file: string, error: unknown): HandlerModuleError {
  const { name = 'Error', code, stack = '' } = (error ?? {}) as { name?: string; code?: string; stack?: string };
  // Node puts a syntax error's `file:line` on the first line of its stack, not in its message.
  const firstLine = stack.split('\n', 1)[0] ?? '';
  const at = name === 'SyntaxError' && /^\S+:\d+$/.test(firstLine) ? ` (${firstLine})` : '';
  const hint =
    code === 'ERR_UNKNOWN_FILE_EXTENSION'
      ? ' (a .ts module loads with @durable-mcp/dev installed, or under tsx; otherwise build it to .js)'
      : '';
  return new HandlerModuleError(`handler module ${file} failed to load: ${name}: ${message(error)}${at}${hint}`);
}

const hasTools = (value: unknown) => typeof value === 'object' && value !== null && 'tools' in value;

/**
 * The handler set a module exports: its `handlers` export, else its default export, whichever has
 * `tools` (a CommonJS module's default export is its whole exports object, which is not a set
 * unless it was assigned one). A CommonJS build of an ES module (TypeScript's or Babel's output,
 * marked `__esModule`) arrives through `import()` as its exports object under `default`, so that
 * object is read the same way. Otherwise the names the module does export, for the message.
 */
function exportedHandlerSet(namespace: Record<string, unknown>): { set: unknown } | { exportNames: string[] } {
  const defaultExport = namespace.default as Record<string, unknown> | undefined;
  const exports = defaultExport?.__esModule === true ? defaultExport : namespace;
  const set = [exports.handlers, exports.default].find(hasTools);
  if (set !== undefined) return { set };
  const exportNames = Object.keys(exports).filter(
    (name) => !['default', '__esModule', 'module.exports'].includes(name),
  );
  return { exportNames };
}

/** The handler set `specifier` names, checked, with its version; throws `HandlerModuleError`. */
export async function loadHandlers(specifier: string, cwd: string = process.cwd()): Promise<LoadedHandlers> {
  if (isBuiltInHandlerSet(specifier)) {
    const origin = `built-in handler set ${specifier}`;
    return { set: checked(builtInHandlerSet(specifier), origin), version: builtInHandlerVersion(specifier), origin };
  }
  const file = resolveModule(specifier, cwd);
  let namespace: Record<string, unknown>;
  try {
    // An absolute path, not a file: URL: Node's import() takes either on POSIX, and jest, which
    // turns import() into require(), only the path.
    namespace = (await import(file)) as Record<string, unknown>;
  } catch (error) {
    throw loadFailure(file, error);
  }
  const exported = exportedHandlerSet(namespace);
  if ('exportNames' in exported) {
    const found = exported.exportNames.length ? `; it exports ${exported.exportNames.join(', ')}` : '';
    throw new HandlerModuleError(
      `handler module ${file}: exports no handler set (export one, with its \`tools\`, as \`handlers\` or as the default export${found})`,
    );
  }
  const origin = `handler module ${file}`;
  return { set: checked(exported.set, origin), version: moduleHandlerVersion(file), origin };
}

function checked(value: unknown, origin: string): HandlerSet {
  try {
    return checkHandlerSet(value);
  } catch (error) {
    if (!(error instanceof InvalidHandlerSet)) throw error;
    throw new HandlerModuleError(`${origin}: invalid handler set:\n  ${error.message}`);
  }
}

/** For a process main: the handler set, or its reason printed (no stack) and exit 78 (EX_CONFIG). */
export async function loadHandlersOrExit(specifier: string): Promise<LoadedHandlers> {
  try {
    return await loadHandlers(specifier);
  } catch (error) {
    if (!(error instanceof HandlerModuleError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}
