/**
 * The exchange methods: the only requests that run as a durable exchange and may answer with an
 * ask. The one list of them: the `ExchangeMethod` type (types.ts), the legacy era's dispatch and
 * the admin API's filter read it. Pure, with no import, so any layer (the workflow bundle too) may.
 */
export const EXCHANGE_METHODS = ['tools/call', 'prompts/get', 'resources/read'] as const;

/** Whether a request's method is one of the exchange methods. */
export function isExchangeMethod(method: string): method is (typeof EXCHANGE_METHODS)[number] {
  return (EXCHANGE_METHODS as readonly string[]).includes(method);
}
