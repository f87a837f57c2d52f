/**
 * The smallest complete exchange: ask the user for their name (form elicitation), then greet them.
 * A decline, a cancel or an error answer ends the call with a polite result instead of asking again.
 */
import { answerError, defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';

export const greet = defineTool({
  tool: {
    name: 'greet',
    title: 'Greet the user',
    description: 'Asks the user for their name, then greets them by it.',
    inputSchema: {
      type: 'object',
      properties: { greeting: { type: 'string', description: 'Greeting word, e.g. "Hello"' } },
    },
  },
  run(args, ctx) {
    const greeting = typeof args.greeting === 'string' && args.greeting.trim() ? args.greeting.trim() : 'Hello';
    const answer = inputResponse(ctx.inputResponses, 'name');
    if (answer.kind === 'elicit' && answer.action === 'accept' && typeof answer.content?.name === 'string') {
      return { content: [{ type: 'text', text: `${greeting}, ${answer.content.name}!` }] };
    }
    // A decline, a cancel, or a client that could not ask at all (an error answer): stop asking.
    if ((answer.kind === 'elicit' && answer.action !== 'accept') || answerError(ctx.inputResponses, 'name')) {
      return { content: [{ type: 'text', text: `${greeting}, whoever you are.` }] };
    }
    return inputRequired({
      inputRequests: {
        name: inputRequired.elicit({
          message: 'What is your name?',
          requestedSchema: {
            type: 'object',
            properties: { name: { type: 'string', title: 'Name', minLength: 1 } },
            required: ['name'],
          },
        }),
      },
    });
  },
});
