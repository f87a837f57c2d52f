// The workflow bundle's entry: workflow functions only.
export { exchangeWorkflow } from './exchange-workflow';
export { webhookDeliveryWorkflow } from './webhook-delivery';
