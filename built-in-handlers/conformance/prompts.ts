/**
 * The suite's prompts: plain text, arguments (with a completer for arg1), an embedded resource,
 * an image, and one that asks before it answers, to show `prompts/get` is a multi-round-trip
 * method too.
 */
import { definePrompt, inputRequired, inputResponse } from '@durable-mcp/handlers';
import { PNG, acceptedString, refused, stringForm } from './fixtures';

const ARG1_VALUES = ['test1', 'test2', 'testing', 'other'];

export const simplePrompt = definePrompt({
  prompt: { name: 'test_simple_prompt', description: 'A simple prompt without arguments.' },
  run: () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }),
});

export const promptWithArguments = definePrompt({
  prompt: {
    name: 'test_prompt_with_arguments',
    description: 'A prompt that repeats its two arguments.',
    arguments: [
      { name: 'arg1', description: 'First test argument', required: true },
      { name: 'arg2', description: 'Second test argument', required: true },
    ],
  },
  complete: { arg1: (value) => ARG1_VALUES.filter((candidate) => candidate.startsWith(value)) },
  run: ({ arg1, arg2 }) => ({
    messages: [
      { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` } },
    ],
  }),
});

export const promptWithEmbeddedResource = definePrompt({
  prompt: {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt that embeds the resource it is given.',
    arguments: [{ name: 'resourceUri', description: 'URI of the resource to embed', required: true }],
  },
  run: ({ resourceUri }) => ({
    messages: [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: { uri: resourceUri ?? '', mimeType: 'text/plain', text: 'Embedded resource content for testing.' },
        },
      },
      { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
    ],
  }),
});

export const promptWithImage = definePrompt({
  prompt: { name: 'test_prompt_with_image', description: 'A prompt with an image.' },
  run: () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }),
});

export const inputRequiredPrompt = definePrompt({
  prompt: {
    name: 'test_input_required_result_prompt',
    description: 'Asks the user what context to use (elicitation), then writes the prompt with it.',
  },
  run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'user_context');
    const context = acceptedString(answer, 'context');
    if (context !== undefined) {
      return { messages: [{ role: 'user', content: { type: 'text', text: `Use this context: ${context}` } }] };
    }
    if (refused(answer)) {
      return {
        messages: [{ role: 'user', content: { type: 'text', text: 'No context was given; answer generally.' } }],
      };
    }
    return inputRequired({
      inputRequests: {
        user_context: inputRequired.elicit({
          message: 'What context should the prompt use?',
          requestedSchema: stringForm('context'),
        }),
      },
    });
  },
});
