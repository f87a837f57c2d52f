import type { HandlerSet } from '../../lib/handler-api';
import { greet } from './greet';
import { guessNumber } from './guess-number';

export const demoHandlers: HandlerSet = { name: 'demo', tools: [greet, guessNumber] };
