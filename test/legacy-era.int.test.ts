import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { ElicitRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
export const x = [Client, StreamableHTTPClientTransport, SSEClientTransport, ElicitRequestSchema, McpError];
