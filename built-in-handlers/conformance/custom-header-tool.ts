/**
 * A tool whose parameters clients mirror into `Mcp-Param-*` headers (SEP-2243 `x-mcp-header`), for
 * the suite's `http-custom-header-server-validation` scenario: it calls this tool with good and
 * bad headers (Base64, literals that only look encoded, a header left out) and expects the service
 * to refuse the mismatches before the handler runs. One parameter of each permitted type, and one
 * that is not mirrored.
 */
import { defineTool } from '@durable-mcp/handlers';
import { text } from './fixtures';

export const customHeaderParams = defineTool({
  tool: {
    name: 'test_custom_header_params',
    description: 'Echoes its arguments; region, priority and verbose travel in Mcp-Param-* headers too',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', description: 'Mirrored as Mcp-Param-Region', 'x-mcp-header': 'Region' },
        priority: { type: 'integer', description: 'Mirrored as Mcp-Param-Priority', 'x-mcp-header': 'Priority' },
        verbose: { type: 'boolean', description: 'Mirrored as Mcp-Param-Verbose', 'x-mcp-header': 'Verbose' },
        query: { type: 'string', description: 'Not mirrored' },
      },
      required: ['region', 'priority'],
    },
  },
  run: (args) => text(JSON.stringify(args)),
});
