/**
 * Tools that answer at once with one kind of content each (text, image, audio, embedded resource,
 * a mix) and one that fails as a tool result (`isError`), for the suite's tools/call checks.
 */
import { defineTool } from '@durable-mcp/handlers';
import { NO_ARGUMENTS, PNG, WAV, text } from './fixtures';

export const simpleText = defineTool({
  tool: { name: 'test_simple_text', description: 'Returns a simple text response.', inputSchema: NO_ARGUMENTS },
  run: () => text('This is a simple text response for testing.'),
});

export const imageContent = defineTool({
  tool: { name: 'test_image_content', description: 'Returns a small PNG image.', inputSchema: NO_ARGUMENTS },
  run: () => ({ content: [{ type: 'image', data: PNG, mimeType: 'image/png' }] }),
});

export const audioContent = defineTool({
  tool: { name: 'test_audio_content', description: 'Returns a short WAV clip.', inputSchema: NO_ARGUMENTS },
  run: () => ({ content: [{ type: 'audio', data: WAV, mimeType: 'audio/wav' }] }),
});

export const embeddedResource = defineTool({
  tool: {
    name: 'test_embedded_resource',
    description: 'Returns an embedded text resource.',
    inputSchema: NO_ARGUMENTS,
  },
  run: () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }),
});

export const multipleContentTypes = defineTool({
  tool: {
    name: 'test_multiple_content_types',
    description: 'Returns text, an image and an embedded resource.',
    inputSchema: NO_ARGUMENTS,
  },
  run: () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ],
  }),
});

export const errorHandling = defineTool({
  tool: {
    name: 'test_error_handling',
    description: 'Always fails, as a tool result with isError.',
    inputSchema: NO_ARGUMENTS,
  },
  run: () => ({ ...text('This tool intentionally returns an error for testing'), isError: true }),
});
