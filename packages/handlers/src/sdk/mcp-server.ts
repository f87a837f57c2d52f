/**
 * `McpServer` for tools written for the official SDK's `McpServer.registerTool`, in the
 * multi-round-trip style (they return `inputRequired(...)` and read `ctx.mcpReq.inputResponses`
 * and `ctx.mcpReq.requestState()`). Such a module changes its import and exports a handler set:
 *
 *     import { McpServer } from '@durable-mcp/handlers/sdk'; // was '@modelcontextprotocol/server'
 *     const server = new McpServer({ name: 'releases', version: '1.0.0' });
 *     server.registerTool('deploy', { inputSchema: z.object({ env: z.string() }) }, async ({ env }, ctx) => ...);
 *     export default server.toHandlerSet(); // instead of connecting a transport
 *
 * Registration is the SDK's own: each tool is registered on an SDK `McpServer` that never
 * connects, which checks its name, wraps a raw zod shape, refuses a duplicate and converts its
 * schemas exactly as an SDK server would list them.
 */
import {
  McpServer as SdkMcpServer,
  type Implementation,
  type McpServerOptions,
  type RegisteredTool,
  type Tool,
} from '@modelcontextprotocol/server';
import {
  type HandlerSet,
  type RoundActivity,
  type IdenticalCalls,
  type LongWait,
  type TaskBegins,
  type TaskSupport,
  type ToolHandler,
} from '../definitions';
import { defineTool } from '../define';
import { listedSchemas } from './schemas';
import { serverContext } from './server-context';
import { callTool } from './tool-call';

/** What durable-mcp adds to a tool, which the SDK has no options for (tasks left the SDK in v2). */
export interface DurableToolOptions {
  taskSupport?: TaskSupport;
  taskBegins?: TaskBegins;
  roundActivity?: RoundActivity;
  longWait?: LongWait;
  identicalCalls?: IdenticalCalls;
}

/**
 * The SDK's options, of which `instructions` and `requestState.verify` are used (the rest concern
 * a transport and capabilities the service owns), and durable-mcp's per-tool options by tool name.
 */
export type DurableMcpServerOptions = McpServerOptions & {
  durable?: Record<string, DurableToolOptions>;
};

export class McpServer {
  private readonly sdk: SdkMcpServer;
  /** Each registered tool under its current name (`update({ name })` renames, `remove()` drops it). */
  private readonly tools = new Map<RegisteredTool, string>();

  constructor(
    private readonly serverInfo: Implementation,
    private readonly options: DurableMcpServerOptions = {},
  ) {
    this.sdk = new SdkMcpServer(serverInfo, { capabilities: { tools: {} } });
  }

  /** The SDK's `registerTool`, overloads and argument inference included. */
  readonly registerTool: SdkMcpServer['registerTool'] = ((name: string, config: object, cb: never) => {
    const tool = this.sdk.registerTool(name, config as never, cb);
    this.tools.set(tool, name);
    const { update, remove } = tool;
    tool.update = (updates) => {
      update(updates);
      if (updates.name === null) this.tools.delete(tool);
      else if (updates.name !== undefined) this.tools.set(tool, updates.name);
    };
    tool.remove = () => {
      remove();
      this.tools.delete(tool);
    };
    return tool;
  }) as SdkMcpServer['registerTool'];

  /**
   * The handler set to serve (the module's default export, named by HANDLERS). It holds the tools
   * as they are when it is called: one disabled, removed or renamed before then is served so.
   */
  toHandlerSet(): HandlerSet {
    const served = [...this.tools].filter(([tool]) => tool.enabled);
    const unknown = Object.keys(this.options.durable ?? {}).filter((name) => !served.some(([, n]) => n === name));
    if (unknown.length) throw new Error(`durable options name no enabled tool: ${unknown.join(', ')}`);
    const tools = served.map(([tool, name]) => this.toolHandler(name, tool));
    return {
      name: this.serverInfo.name,
      ...(this.options.instructions !== undefined ? { instructions: this.options.instructions } : {}),
      tools,
    };
  }

  private toolHandler(name: string, registered: RegisteredTool): ToolHandler {
    if (registered.scopeChallenge) {
      // The SDK answers it at the HTTP entry as a 403 step-up challenge; served without it, the tool
      // would run for callers it means to challenge.
      throw new Error(
        `tool ${name}: scopeChallenge is not supported on durable-mcp (require scopes deployment-wide with OAUTH_REQUIRED_SCOPES)`,
      );
    }
    const { inputSchema, outputSchema } = listedSchemas(this.sdk, name, registered);
    const { title, description, annotations, icons, _meta } = registered;
    const described = { name, title, description, inputSchema, outputSchema, annotations, icons, _meta };
    const tool = Object.fromEntries(Object.entries(described).filter(([, value]) => value !== undefined)) as Tool;
    const verify = this.options.requestState?.verify;
    return defineTool({
      tool,
      ...this.options.durable?.[name],
      run: async (args, h) => callTool(name, registered, args, h, await serverContext(h, verify)),
    });
  }
}
