/** Stops the Temporal dev server and Postgres that globalSetup started for the integration tests. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__durableMcpStackStop?.();
}
