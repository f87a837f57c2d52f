/**
 * The stateless scenarios' probe tools. They check the service, not the handlers:
 *   - test_missing_capability asks for sampling whatever the client declared; when it declared no
 *     sampling the service answers the ask with -32021 naming `sampling`, so the tool never runs on;
 *   - test_streaming_elicitation asks once, so the suite can see the ask travel as a result on the
 *     response stream and never as an independent request;
 *   - test_logging_tool logs once and returns, so the suite can see no log reach a client that did
 *     not ask for one.
 */
import { defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';
import { CONFIRM_FORM, NO_ARGUMENTS, sampledText, text } from './fixtures';

export const missingCapability = defineTool({
  tool: {
    name: 'test_missing_capability',
    description: 'Needs sampling: a client that did not declare it gets -32021.',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const sampled = sampledText(inputResponse(ctx.inputResponses, 'sampling'));
    if (sampled !== undefined) return text(`Sampled: ${sampled}`);
    return inputRequired({
      inputRequests: {
        sampling: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
          maxTokens: 20,
        }),
      },
    });
  },
});

export const streamingElicitation = defineTool({
  tool: {
    name: 'test_streaming_elicitation',
    description: 'Asks the user to confirm once, then completes.',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'confirm');
    if (answer.kind === 'elicit')
      return text(`Confirmation answered: action=${answer.action}, ok=${String(answer.content?.ok)}`);
    return inputRequired({
      inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: CONFIRM_FORM }) },
    });
  },
});

export const loggingTool = defineTool({
  tool: {
    name: 'test_logging_tool',
    description: 'Logs one info message (delivered only to a client that asked for logs), then completes.',
    inputSchema: NO_ARGUMENTS,
  },
  async run(_args, ctx) {
    await ctx.sendLog('info', 'Logging tool ran');
    return text('Logging tool completed');
  },
});
