/** The id of an exchange's workflow in Temporal: what the API signals, the worker records and the Web UI lists. */
export function workflowIdFor(exchangeId: string): string {
  return `exchange-${exchangeId}`;
}
