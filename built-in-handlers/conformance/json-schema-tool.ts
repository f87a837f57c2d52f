/**
 * A tool whose input schema uses JSON Schema 2020-12 features ($schema, $defs, $anchor, $ref,
 * if/then/else, allOf/anyOf): tools/list must hand it to clients exactly as written.
 */
import { defineTool } from '@durable-mcp/handlers';
import { text } from './fixtures';

export const jsonSchema202012 = defineTool({
  tool: {
    name: 'json_schema_2020_12_tool',
    description: 'Takes contact details described with JSON Schema 2020-12 keywords',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          $anchor: 'addressDef',
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
  },
  run: () => text('ok'),
});
