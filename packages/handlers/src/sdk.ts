/**
 * `@durable-mcp/handlers/sdk`: serve tools written for the official MCP TypeScript SDK's
 * `McpServer.registerTool` (multi-round-trip style) on durable-mcp, with an import change and a
 * `export default server.toHandlerSet()`. See docs/handler-authors.md "Tools written for the official SDK".
 */
export { McpServer, type DurableMcpServerOptions, type DurableToolOptions } from './sdk/mcp-server';
