/**
 * A guessing game that shows handler state: the secret is chosen on the first round and carried
 * in the handler's own requestState (sealed by the service), and every wrong guess asks again with
 * a hint. Each ask counts toward the exchange's round cap.
 */
import { randomInt } from 'node:crypto';
import { defineTool, inputRequired, inputResponse } from '@durable-mcp/handlers';

interface GameState {
  secret: number;
  guesses: number;
  hint?: string;
}

export const guessNumber = defineTool({
  tool: {
    name: 'guess_number',
    title: 'Guess the number',
    description: 'Picks a number between 1 and `max` and asks the user to guess it, with hints.',
    inputSchema: {
      type: 'object',
      properties: { max: { type: 'integer', minimum: 2, maximum: 1000, default: 100 } },
    },
  },
  run(args, ctx) {
    const max = Number.isInteger(args.max) ? (args.max as number) : 100;
    const state: GameState = ctx.requestState
      ? (JSON.parse(ctx.requestState) as GameState)
      : { secret: randomInt(1, max + 1), guesses: 0 };

    const answer = inputResponse(ctx.inputResponses, 'guess');
    if (answer.kind === 'elicit' && answer.action !== 'accept') {
      return { content: [{ type: 'text', text: `Game abandoned after ${state.guesses} guesses.` }] };
    }
    if (answer.kind === 'elicit' && typeof answer.content?.guess === 'number') {
      const guess = answer.content.guess;
      state.guesses += 1;
      if (guess === state.secret) {
        return { content: [{ type: 'text', text: `Yes, it was ${state.secret}! Found in ${state.guesses} guesses.` }] };
      }
      state.hint = guess < state.secret ? `Higher than ${guess}.` : `Lower than ${guess}.`;
    }

    return inputRequired({
      inputRequests: {
        guess: inputRequired.elicit({
          message: `${state.hint ?? ''} Guess a number between 1 and ${max}.`.trim(),
          requestedSchema: {
            type: 'object',
            properties: { guess: { type: 'integer', minimum: 1, maximum: max } },
            required: ['guess'],
          },
        }),
      },
      requestState: JSON.stringify(state),
    });
  },
});
