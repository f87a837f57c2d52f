/**
 * `durable-mcp check <module>`: loads a handler module and checks every declaration the way the
 * API and the worker do at start-up (SDK schemas, unique names, schemas that compile, `x-mcp-header`
 * rules, task support, no unknown keys), without starting anything: for an author's CI.
 */
import { HandlerModuleError, loadHandlers } from './start/handler-module';
import { allowTypeScriptModule } from './typescript-modules';

/** Exit code of a handler module that cannot be served (EX_CONFIG), as the service's mains use. */
export const EXIT_INVALID_MODULE = 78;

export async function checkCommand(specifier: string, out: NodeJS.WritableStream = process.stdout): Promise<number> {
  await allowTypeScriptModule(specifier);
  try {
    const { set, version } = await loadHandlers(specifier);
    const counts = [
      `${set.tools.length} tool${set.tools.length === 1 ? '' : 's'}`,
      ...(set.prompts?.length ? [`${set.prompts.length} prompt(s)`] : []),
      ...(set.resources?.length ? [`${set.resources.length} resource(s)`] : []),
      ...(set.resourceTemplates?.length ? [`${set.resourceTemplates.length} resource template(s)`] : []),
    ];
    out.write(`handler set ${set.name} (${version}): ${counts.join(', ')}, all valid\n`);
    for (const { tool } of set.tools) out.write(`  tool ${tool.name}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof HandlerModuleError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return EXIT_INVALID_MODULE;
  }
}
