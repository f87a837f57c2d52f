import type { CallToolResult } from '@modelcontextprotocol/server';

/** A tool error the gateway answers a call with: text an agent reads and acts on. */
export const toolError = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });
