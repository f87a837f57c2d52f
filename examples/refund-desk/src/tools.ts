/** The handler set this project serves: `HANDLERS=./dist/tools.js`, or `durable-mcp dev src/tools.ts`. */
import type { HandlerSet } from '@durable-mcp/handlers';
import { approveRefund } from './approve-refund';

export const handlers: HandlerSet = {
  name: 'refund-desk',
  instructions: 'Refunds go through approve_refund: a person approves each one.',
  tools: [approveRefund],
};
