// Pins what HANDLERS can name and what a module that cannot be served gets: built-in sets by name,
// a module by path (relative to the working directory, or absolute) or by package name, with its
// handler set as the default or the `handlers` export; and for a missing file, a syntax error, a
// module that throws, a wrong export and an invalid tool, one HandlerModuleError naming the file
// (and the tool). Each set comes with its version (handler-version.ts has the rules).
import { builtInHandlerSet } from '../../built-in-handlers';
import { BUILT_IN_HANDLER_SETS } from '../../lib/config';
import { approveRefundModule, approveRefundTool, HANDLER_API, moduleFolder } from '../../test/support/handler-modules';
import { HandlerModuleError, loadHandlers } from './handler-module';
import { servicePackageVersion } from '../../lib/handler-set/handler-version';

const folder = moduleFolder();
afterAll(() => folder.remove());

/** The message `loadHandlers` refuses `specifier` with, from the temporary folder. */
async function refusal(specifier: string): Promise<string> {
  const error = await loadHandlers(specifier, folder.dir).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(HandlerModuleError);
  return (error as HandlerModuleError).message;
}

describe('loadHandlers', () => {
  it.each(BUILT_IN_HANDLER_SETS)(
    'serves the built-in set %s by its name, through the same check, at the service version',
    async (name) => {
      expect(await loadHandlers(name, folder.dir)).toEqual({
        set: builtInHandlerSet(name),
        version: `${name}@${servicePackageVersion()}`,
        origin: `built-in handler set ${name}`,
      });
    },
  );

  it("loads a module's default export from a path relative to the working directory", async () => {
    const file = folder.write('src/tools.ts', approveRefundModule());
    const { set, version, origin } = await loadHandlers('./src/tools.ts', folder.dir);
    expect(set.name).toBe('refunds');
    expect(set.tools.map((t) => t.tool.name)).toEqual(['approve_refund']);
    // No package.json owns it: its version is a digest of its code.
    expect(version).toMatch(/^tools\.ts@sha256:[0-9a-f]{12}$/);
    expect(origin).toBe(`handler module ${file}`);
  });

  it('loads the `handlers` export of a CommonJS module by its absolute path', async () => {
    const file = folder.write(
      'cjs-tools.js',
      `const { defineTool, inputRequired, inputResponse } = require(${JSON.stringify(HANDLER_API)});
exports.handlers = { name: 'refunds-cjs', tools: [${approveRefundTool()}] };`,
    );
    expect((await loadHandlers(file, '/')).set.name).toBe('refunds-cjs');
  });

  it('loads a package by its name, resolved from the working directory', async () => {
    // A published package ships JavaScript (here CommonJS, its whole exports the set).
    folder.write(
      'node_modules/refund-tools/package.json',
      JSON.stringify({ name: 'refund-tools', version: '1.4.2', main: 'lib/index.js' }),
    );
    folder.write(
      'node_modules/refund-tools/lib/index.js',
      `const { defineTool, inputRequired, inputResponse } = require(${JSON.stringify(HANDLER_API)});
module.exports = { name: 'refunds', tools: [${approveRefundTool()}] };`,
    );
    const loaded = await loadHandlers('refund-tools', folder.dir);
    expect(loaded.set.name).toBe('refunds');
    expect(loaded.version).toBe('refund-tools@1.4.2');
  });

  it('refuses a missing file, naming it', async () => {
    expect(await refusal('./missing.js')).toBe(
      `handler module ./missing.js: no such file (resolved from ${folder.dir})`,
    );
  });

  it('refuses a missing package, saying how a file is named', async () => {
    expect(await refusal('dist/tools.js')).toContain('no such package');
    expect(await refusal('dist/tools.js')).toContain('./dist/tools.js');
  });

  it('refuses a module with a syntax error, naming the file', async () => {
    const file = folder.write('broken.js', 'module.exports = { name: "broken", tools: [ };\n');
    expect(await refusal('./broken.js')).toMatch(new RegExp(`^handler module ${file} failed to load: SyntaxError: `));
  });

  it('refuses a module that throws while it loads, with its error', async () => {
    const file = folder.write('throws.js', 'throw new Error("REFUNDS_API_KEY is not set");\n');
    expect(await refusal('./throws.js')).toBe(
      `handler module ${file} failed to load: Error: REFUNDS_API_KEY is not set`,
    );
  });

  it('refuses a module that exports no handler set, saying what it exports', async () => {
    const file = folder.write('no-set.js', 'exports.approveRefund = {};\n');
    expect(await refusal('./no-set.js')).toBe(
      `handler module ${file}: exports no handler set (export one, with its \`tools\`, as \`handlers\` or as the default export; it exports approveRefund)`,
    );
  });

  it('refuses an export that is not a valid handler set, saying what is wrong', async () => {
    const file = folder.write('wrong-shape.js', 'module.exports = { name: "refunds", tools: {}, instructionz: "" };\n');
    const message = await refusal('./wrong-shape.js');
    expect(message).toMatch(new RegExp(`^handler module ${file}: invalid handler set:\n`));
    expect(message).toContain('tools: Invalid input: expected array');
    expect(message).toContain('Unrecognized key: "instructionz"');
  });

  it('refuses a tool whose inputSchema does not compile, naming the file and the tool', async () => {
    const file = folder.write(
      'bad-schema.ts',
      approveRefundModule(approveRefundTool(`{ type: 'object', properties: { amount: { type: 'money' } } }`)),
    );
    const message = await refusal(file);
    expect(message).toContain(`handler module ${file}: invalid handler set:`);
    expect(message).toContain('tool approve_refund: inputSchema does not compile');
  });
});
