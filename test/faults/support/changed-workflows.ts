/**
 * A release of the workflows that cannot replay the histories of the one before it: the exchange
 * workflow now starts with a timer the released code never set, as a careless change would. A
 * worker running this bundle fails every workflow task of an exchange started before it (a
 * non-determinism error), and runs new ones as usual. Workflow code: bundled by the fault stack.
 */
import { sleep } from '@temporalio/workflow';
import type { ExchangeInput } from '../../../lib/exchange/types';
import { exchangeWorkflow as released } from '../../../workflows/exchange-workflow';

export { webhookDeliveryWorkflow } from '../../../workflows/webhook-delivery';

export async function exchangeWorkflow(input: ExchangeInput) {
  await sleep(1);
  return released(input);
}
