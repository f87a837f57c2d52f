/**
 * The Tasks extension (SEP-2663) fixtures of the conformance suite's `tasks-*` scenarios. Each is
 * an ordinary handler: it asks with `inputRequired(...)` and is re-executed with the answers; its
 * definition alone says whether, and when, its calls run as tasks.
 */
import { defineTool, inputRequired, inputResponse, ProtocolError } from '@durable-mcp/handlers';
import { INTERNAL_ERROR } from '../../lib/protocol/json-rpc-codes';
import { acceptedString, NO_ARGUMENTS, stringForm, text } from './fixtures';

/** Waits `ms`, or until the task this execution serves is cancelled (its result is not used then). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
}

/** The longest `slow_compute` runs: its round runs as a regular activity, under HANDLER_TIMEOUT_MS. */
const MAX_SECONDS = 60;

export const greetTool = defineTool({
  tool: {
    name: 'greet',
    description: 'Greets by name, at once (never a task).',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } } },
  },
  run(args) {
    return text(`Hello, ${typeof args.name === 'string' ? args.name : 'World'}!`);
  },
});

export const slowCompute = defineTool({
  tool: {
    name: 'slow_compute',
    description: `Works for \`seconds\` (0 to ${MAX_SECONDS}), then reports; a task for clients that take one.`,
    inputSchema: {
      type: 'object',
      properties: { seconds: { type: 'number', minimum: 0, maximum: MAX_SECONDS }, label: { type: 'string' } },
    },
  },
  taskSupport: 'optional',
  roundActivity: 'regular',
  async run(args, ctx) {
    const seconds = typeof args.seconds === 'number' ? Math.min(Math.max(args.seconds, 0), MAX_SECONDS) : 1;
    await pause(seconds * 1000, ctx.signal);
    const label = typeof args.label === 'string' ? ` ${args.label}` : '';
    return text(`Computed${label} in ${seconds} s.`);
  },
});

export const failingJob = defineTool({
  tool: {
    name: 'failing_job',
    description: 'Works for a second, then reports a tool error. Only ever a task.',
    inputSchema: NO_ARGUMENTS,
  },
  taskSupport: 'required',
  async run(_args, ctx) {
    await pause(1000, ctx.signal);
    return { content: [{ type: 'text', text: 'The job failed: its input was rejected.' }], isError: true };
  },
});

export const protocolErrorJob = defineTool({
  tool: {
    name: 'protocol_error_job',
    description: 'Ends with a JSON-RPC error (a protocol-level failure, not a tool error).',
    inputSchema: NO_ARGUMENTS,
  },
  taskSupport: 'optional',
  run() {
    throw new ProtocolError(INTERNAL_ERROR, 'The job crashed before producing a result');
  },
});

const CONFIRM_SCHEMA = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};

export const confirmDelete = defineTool({
  tool: {
    name: 'confirm_delete',
    description: 'Asks the user to confirm deleting `filename`, then reports what it did.',
    inputSchema: { type: 'object', properties: { filename: { type: 'string' } } },
  },
  taskSupport: 'optional',
  run(args, ctx) {
    const filename = typeof args.filename === 'string' ? args.filename : 'the file';
    const answer = inputResponse(ctx.inputResponses, 'confirm_delete');
    if (answer.kind === 'elicit') {
      const confirmed = answer.action === 'accept' && answer.content?.confirm === true;
      return text(confirmed ? `Deleted ${filename}.` : `Kept ${filename}.`);
    }
    return inputRequired({
      inputRequests: {
        confirm_delete: inputRequired.elicit({ message: `Delete ${filename}?`, requestedSchema: CONFIRM_SCHEMA }),
      },
    });
  },
});

export const multiInput = defineTool({
  tool: {
    name: 'multi_input',
    description: 'Asks two questions at once; completes when both are answered, in one update or two.',
    inputSchema: NO_ARGUMENTS,
  },
  taskSupport: 'optional',
  run(_args, ctx) {
    const first = inputResponse(ctx.inputResponses, 'first_input');
    const second = inputResponse(ctx.inputResponses, 'second_input');
    if (first.kind === 'elicit' && second.kind === 'elicit') {
      const names = [acceptedString(first, 'name'), acceptedString(second, 'name')].map((n) => n ?? '(none)');
      return text(`Both answered: ${names.join(' and ')}.`);
    }
    const form = stringForm('name');
    return inputRequired({
      inputRequests: {
        first_input: inputRequired.elicit({ message: 'First: your name?', requestedSchema: form }),
        second_input: inputRequired.elicit({ message: "Second: your colleague's name?", requestedSchema: form }),
      },
    });
  },
});

export const toolWithTask = defineTool({
  tool: {
    name: 'test_tool_with_task',
    description: "Asks for the user's name synchronously (MRTR), then does its work as a task.",
    inputSchema: NO_ARGUMENTS,
  },
  taskSupport: 'required',
  taskBegins: 'after-input',
  async run(_args, ctx) {
    const name = acceptedString(inputResponse(ctx.inputResponses, 'user_name'), 'name');
    if (name === undefined) {
      return inputRequired({
        inputRequests: {
          user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: stringForm('name') }),
        },
      });
    }
    await pause(500, ctx.signal);
    return text(`Hello, ${name}! Your task is done.`);
  },
});
