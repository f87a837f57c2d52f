/**
 * The multi-round-trip (SEP-2322) fixtures that carry state of their own in `requestState`. The
 * service seals that state, so a handler reads it as plain JSON, and a tampered copy is rejected
 * before the handler runs. Each round only brings the answers to the ask just before it, so what
 * an earlier round learned rides along in the state:
 *   - request_state / tampered_state: one confirmation, completed only with the state echoed back;
 *   - multi_round: a name, then a colour, then the sentence built from both (three rounds);
 *   - multiple_inputs: three asks at once, each kept as it arrives, re-asking only what is missing.
 */
import type { InputRequests } from '@modelcontextprotocol/server';
import { defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';
import {
  CONFIRM_FORM,
  NO_ARGUMENTS,
  acceptedString,
  readState,
  refused,
  rootUris,
  sampledText,
  stringForm,
  text,
} from './fixtures';

/** A tool that asks for a `{ ok }` confirmation along with `{ step }` state, and completes only when both come back. */
function confirmWithState(name: string, description: string, step: string, done: (ok: boolean) => string) {
  return defineTool({
    tool: { name, description, inputSchema: NO_ARGUMENTS },
    run(_args, ctx) {
      if (readState<{ step: string }>(ctx.requestState)?.step === step) {
        const answer = inputResponse(ctx.inputResponses, 'confirm');
        const ok = answer.kind === 'elicit' && answer.action === 'accept' ? answer.content?.ok : undefined;
        if (typeof ok === 'boolean') return text(done(ok));
        if (refused(answer)) return text(`${done(false)} (the user declined or cancelled)`);
      }
      return inputRequired({
        inputRequests: { confirm: inputRequired.elicit({ message: 'Please confirm', requestedSchema: CONFIRM_FORM }) },
        requestState: JSON.stringify({ step }),
      });
    },
  });
}

export const inputRequiredRequestState = confirmWithState(
  'test_input_required_result_request_state',
  'Asks for a confirmation with requestState, and completes only when the state comes back.',
  'confirm',
  (ok) => (ok ? 'state-ok: confirmed' : 'state-ok: not confirmed'),
);

export const inputRequiredTamperedState = confirmWithState(
  'test_input_required_result_tampered_state',
  'Asks for a confirmation with requestState; a tampered state is rejected before the tool runs.',
  'integrity-check',
  (ok) => `state verified: ok=${ok}`,
);

interface MultiRoundState {
  round: 1 | 2;
  name: string;
}

const askName = () =>
  inputRequired({
    inputRequests: {
      step1: inputRequired.elicit({ message: 'What is your name?', requestedSchema: stringForm('name') }),
    },
    requestState: JSON.stringify({ round: 1 }),
  });

const askColor = (name: string) =>
  inputRequired({
    inputRequests: {
      step2: inputRequired.elicit({ message: 'What is your favorite color?', requestedSchema: stringForm('color') }),
    },
    requestState: JSON.stringify({ round: 2, name }),
  });

export const inputRequiredMultiRound = defineTool({
  tool: {
    name: 'test_input_required_result_multi_round',
    description: 'Asks for a name, then a favorite color, then says who likes what (three rounds).',
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const state = readState<MultiRoundState>(ctx.requestState);
    if (state?.round === 2 && typeof state.name === 'string') {
      const answer = inputResponse(ctx.inputResponses, 'step2');
      const color = acceptedString(answer, 'color');
      if (color !== undefined) return text(`${state.name} likes ${color}`);
      if (refused(answer)) return text(`${state.name} did not say which color they like.`);
      return askColor(state.name);
    }
    if (state?.round === 1) {
      const answer = inputResponse(ctx.inputResponses, 'step1');
      const name = acceptedString(answer, 'name');
      if (name !== undefined) return askColor(name);
      if (refused(answer)) return text('Stopped at step 1: no name was given.');
    }
    return askName();
  },
});

interface Collected {
  name?: string;
  greeting?: string;
  roots?: string[];
}

export const inputRequiredMultipleInputs = defineTool({
  tool: {
    name: 'test_input_required_result_multiple_inputs',
    description: "Asks for the user's name, a greeting from the client's model and the client's roots, all at once.",
    inputSchema: NO_ARGUMENTS,
  },
  run(_args, ctx) {
    const saved = readState<Collected>(ctx.requestState) ?? {};
    const userName = inputResponse(ctx.inputResponses, 'user_name');
    if (saved.name === undefined && refused(userName)) return text('Stopped: the user declined to give a name.');
    const got: Collected = {
      name: saved.name ?? acceptedString(userName, 'name'),
      greeting: saved.greeting ?? sampledText(inputResponse(ctx.inputResponses, 'greeting')),
      roots: saved.roots ?? rootUris(inputResponse(ctx.inputResponses, 'client_roots')),
    };
    if (got.name !== undefined && got.greeting !== undefined && got.roots !== undefined) {
      return text(`${got.greeting} (for ${got.name}; roots: ${got.roots.join(', ') || 'none'})`);
    }

    const inputRequests: InputRequests = {};
    if (got.name === undefined) {
      inputRequests.user_name = inputRequired.elicit({
        message: 'What is your name?',
        requestedSchema: stringForm('name'),
      });
    }
    if (got.greeting === undefined) {
      inputRequests.greeting = inputRequired.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: 'Write a short greeting' } }],
        maxTokens: 50,
      });
    }
    if (got.roots === undefined) inputRequests.client_roots = inputRequired.listRoots();
    return inputRequired({ inputRequests, requestState: JSON.stringify(got) });
  },
});
