/**
 * The infrastructure `npm run dev`, the bench and the integration tests' globalSetup run against,
 * in one call: Temporal (`TEMPORAL_ADDRESS`, else a dev server) and Postgres (`DATABASE_URL`,
 * else an embedded one), stopped in reverse order. Dev tooling only: no process main uses it.
 */
import path from 'node:path';
import { createTeardown } from '../teardown';
import { startLocalPostgres } from './local-postgres';
import { freePort } from './free-port';
import { startTemporalDevServer, waitForTemporal } from './temporal-dev-server';
import { openTemporalUiDoor } from './temporal-ui-door';

export interface LocalStackOptions {
  /** Folder for what is started here: `postgres/`, `temporal.log` (and `temporal.db` when persistent). */
  dataDir: string;
  /** The embedded Postgres's database. */
  database: string;
  /** Keep Postgres data and Temporal history in `dataDir` across runs (dev); thrown away otherwise. */
  persistent: boolean;
  /**
   * The dev server's port (a free one when absent) and its Web UI's (no UI when absent). The UI
   * itself listens on a free port; its port here is the door that seeds a browser's exchange
   * columns (temporal-ui-door.ts).
   */
  temporalPort?: number;
  temporalUiPort?: number;
  /** The embedded Postgres's port (a free one when absent or 0). */
  postgresPort?: number;
  /** The codec endpoint the dev server's Web UI decodes payloads through (the API's /codec). */
  temporalUiCodecEndpoint?: string;
  /** Wait (30 s) for an external `TEMPORAL_ADDRESS` to serve the `default` namespace (default true). */
  waitForExternalTemporal?: boolean;
  /**
   * Start the Temporal dev server and Postgres in process groups of their own, so a terminal's
   * Ctrl-C reaches only the caller, which stops them last, after the service that uses them.
   */
  ownProcessGroups?: boolean;
  /** Told before a server is started here, to say so. */
  onStart?(server: 'temporal' | 'postgres'): void;
  env?: NodeJS.ProcessEnv;
}

export interface LocalStack {
  temporalAddress: string;
  /** The dev server's Web UI, or `TEMPORAL_UI_URL` for an external Temporal. */
  temporalUiUrl?: string;
  databaseUrl: string;
  /** Stops what was started here, in reverse order; every stop is tried, then the first error thrown. */
  stop(): Promise<void>;
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const env = options.env ?? process.env;
  const teardown = createTeardown();
  const { stop } = teardown;
  try {
    let temporalAddress = env.TEMPORAL_ADDRESS;
    let temporalUiUrl = env.TEMPORAL_UI_URL;
    if (temporalAddress) {
      if (options.waitForExternalTemporal ?? true) await waitForTemporal(temporalAddress, 30_000);
    } else {
      options.onStart?.('temporal');
      // The door first: a port another process holds ends the start before the server starts.
      const uiPort = options.temporalUiPort ? await freePort() : undefined;
      const door = options.temporalUiPort
        ? await openTemporalUiDoor({
            port: options.temporalUiPort,
            uiPort: uiPort!,
            namespace: env.TEMPORAL_NAMESPACE || 'default',
          })
        : undefined;
      if (door) teardown.add(door.close);
      const temporal = await startTemporalDevServer({
        port: options.temporalPort,
        uiPort,
        uiCodecEndpoint: options.temporalUiCodecEndpoint,
        dbFile: options.persistent ? path.join(options.dataDir, 'temporal.db') : undefined,
        logFile: path.join(options.dataDir, 'temporal.log'),
        ...(options.ownProcessGroups ? { ownProcessGroup: true } : {}),
      });
      teardown.add(temporal.stop);
      temporalAddress = temporal.address;
      temporalUiUrl = door?.url;
    }

    let databaseUrl = env.DATABASE_URL;
    if (!databaseUrl) {
      options.onStart?.('postgres');
      const pg = await startLocalPostgres({
        dataDir: path.join(options.dataDir, 'postgres'),
        database: options.database,
        persistent: options.persistent,
        ...(options.postgresPort ? { port: options.postgresPort } : {}),
        ...(options.ownProcessGroups ? { ownProcessGroup: true } : {}),
      });
      teardown.add(pg.stop);
      databaseUrl = pg.url;
    }
    return { temporalAddress, temporalUiUrl, databaseUrl, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
