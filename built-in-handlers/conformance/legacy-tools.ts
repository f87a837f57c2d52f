/**
 * The sampling and elicitation tools of the 2025-era scenarios. The suite drives them with a
 * legacy client, so the service fulfils each ask as a real server-to-client request; the
 * handlers are written in the same ask-and-re-run style as every other. Each reports whatever the
 * client answered, so the suite can see its answer came back; only a missing answer is asked again.
 */
import { defineTool, inputRequired, inputResponse, type InputResponseView } from '@durable-mcp/handlers';
import { NO_ARGUMENTS, sampledText, text } from './fixtures';

const described = (view: InputResponseView & { kind: 'elicit' }) =>
  `action=${view.action}, content=${JSON.stringify(view.content ?? {})}`;

export const sampling = defineTool({
  tool: {
    name: 'test_sampling',
    description: 'Asks the client to sample a completion for the prompt, and returns it.',
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
      required: ['prompt'],
    },
  },
  run(args, ctx) {
    const sampled = sampledText(inputResponse(ctx.inputResponses, 'sampling'));
    if (sampled !== undefined) return text(`LLM response: ${sampled}`);
    const prompt = typeof args.prompt === 'string' ? args.prompt : '';
    return inputRequired({
      inputRequests: {
        sampling: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        }),
      },
    });
  },
});

export const elicitation = defineTool({
  tool: {
    name: 'test_elicitation',
    description: 'Asks the user for a username and email, and returns their answer.',
    inputSchema: {
      type: 'object',
      properties: { message: { type: 'string', description: 'The message to show the user' } },
      required: ['message'],
    },
  },
  run(args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'user_info');
    if (answer.kind === 'elicit') return text(`User response: ${described(answer)}`);
    return inputRequired({
      inputRequests: {
        user_info: inputRequired.elicit({
          message: typeof args.message === 'string' ? args.message : 'Please provide your information',
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: "User's response" },
              email: { type: 'string', description: "User's email address" },
            },
            required: ['username', 'email'],
          },
        }),
      },
    });
  },
});

/** SEP-1034: a default value for every primitive type. */
export const elicitationDefaults = defineTool({
  tool: {
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks for a form whose every field has a default value (SEP-1034).',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'defaults');
    if (answer.kind === 'elicit') return text(`Elicitation completed: ${described(answer)}`);
    return inputRequired({
      inputRequests: {
        defaults: inputRequired.elicit({
          message: 'Please review and update the form fields with defaults',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', default: 'John Doe' },
              age: { type: 'integer', default: 30 },
              score: { type: 'number', default: 95.5 },
              status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', default: true },
            },
          },
        }),
      },
    });
  },
});

/** SEP-1330: all five enum shapes, single and multi select, titled and not, and the legacy enumNames. */
export const elicitationEnums = defineTool({
  tool: {
    name: 'test_elicitation_sep1330_enums',
    description: 'Asks for a form with every enum variant (SEP-1330).',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'enums');
    if (answer.kind === 'elicit') return text(`Elicitation completed: ${described(answer)}`);
    return inputRequired({
      inputRequests: {
        enums: inputRequired.elicit({
          message: 'Please select options from the enum fields',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                  { const: 'value3', title: 'Third Option' },
                ],
              },
              legacyEnum: {
                type: 'string',
                enum: ['opt1', 'opt2', 'opt3'],
                enumNames: ['Option One', 'Option Two', 'Option Three'],
              },
              untitledMulti: { type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } },
              titledMulti: {
                type: 'array',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                    { const: 'value3', title: 'Third Choice' },
                  ],
                },
              },
            },
          },
        }),
      },
    });
  },
});
