/**
 * The 2026-07-28 multi-round-trip (SEP-2322) fixtures that need no state of their own: one ask of
 * each kind (elicitation, sampling, roots), and one that asks only for what the client declared.
 * Each completes on a well-formed answer and asks again on anything else (a wrong key, a number
 * where an answer object belongs, a form without the field), so malformed input never completes.
 */
import { defineTool, inputRequired, inputResponse, type HandlerContext } from '@durable-mcp/handlers';
import { NO_ARGUMENTS, acceptedString, refused, rootUris, sampledText, stringForm, text } from './fixtures';

export const inputRequiredElicitation = defineTool({
  tool: {
    name: 'test_input_required_result_elicitation',
    description: 'Asks the user for their name (elicitation), then greets them.',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const answer = inputResponse(ctx.inputResponses, 'user_name');
    const name = acceptedString(answer, 'name');
    if (name !== undefined) return text(`Hello, ${name}!`);
    if (refused(answer)) return text('No name given: the user declined or cancelled.');
    return inputRequired({
      inputRequests: {
        user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: stringForm('name') }),
      },
    });
  },
});

export const inputRequiredSampling = defineTool({
  tool: {
    name: 'test_input_required_result_sampling',
    description: "Asks the client's model for the capital of France (sampling), then returns its answer.",
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const sampled = sampledText(inputResponse(ctx.inputResponses, 'capital_question'));
    if (sampled !== undefined) return text(`The model answered: ${sampled}`);
    return inputRequired({
      inputRequests: {
        capital_question: inputRequired.createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        }),
      },
    });
  },
});

export const inputRequiredListRoots = defineTool({
  tool: {
    name: 'test_input_required_result_list_roots',
    description: 'Asks the client for its roots, then lists them.',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const uris = rootUris(inputResponse(ctx.inputResponses, 'client_roots'));
    if (uris !== undefined) return text(`The client has ${uris.length} root(s): ${uris.join(', ') || '(none)'}`);
    return inputRequired({ inputRequests: { client_roots: inputRequired.listRoots() } });
  },
});

/** What each declared capability lets this tool ask, and how it reads the answer (undefined: ask again). */
function capabilityAsks(ctx: HandlerContext) {
  const caps = ctx.clientCapabilities;
  // `elicitation: {}` declares form mode; an elicitation capability that names only `url` does not.
  const formElicitation =
    caps.elicitation && (Object.keys(caps.elicitation).length === 0 || 'form' in caps.elicitation);
  return [
    caps.sampling && {
      key: 'model_hello',
      request: inputRequired.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'Say hello.' } }],
        maxTokens: 20,
      }),
      read: () => {
        const sampled = sampledText(inputResponse(ctx.inputResponses, 'model_hello'));
        return sampled === undefined ? undefined : `sampling answered "${sampled}"`;
      },
    },
    formElicitation && {
      key: 'user_comment',
      request: inputRequired.elicit({ message: 'Any comment?', requestedSchema: stringForm('comment') }),
      read: () => {
        const answer = inputResponse(ctx.inputResponses, 'user_comment');
        const comment = acceptedString(answer, 'comment');
        if (comment !== undefined) return `elicitation answered "${comment}"`;
        return refused(answer) && answer.kind === 'elicit' ? `elicitation answered with ${answer.action}` : undefined;
      },
    },
    caps.roots && {
      key: 'client_roots',
      request: inputRequired.listRoots(),
      read: () => {
        const uris = rootUris(inputResponse(ctx.inputResponses, 'client_roots'));
        return uris === undefined ? undefined : `roots answered with ${uris.length} root(s)`;
      },
    },
  ].filter((ask) => !!ask);
}

export const inputRequiredCapabilities = defineTool({
  tool: {
    name: 'test_input_required_result_capabilities',
    description: 'Asks only for the kinds of input the client declared (sampling, elicitation, roots).',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const asks = capabilityAsks(ctx);
    if (asks.length === 0)
      return text('The client declared no sampling, elicitation or roots capability, so no input could be requested.');
    const answers = asks.map((ask) => ask.read());
    if (answers.every((answer) => answer !== undefined)) return text(`Capabilities check: ${answers.join('; ')}.`);
    // Any answer missing or malformed: ask for all of them again (they travel together).
    return inputRequired({ inputRequests: Object.fromEntries(asks.map((ask) => [ask.key, ask.request])) });
  },
});
