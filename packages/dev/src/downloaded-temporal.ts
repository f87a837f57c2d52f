/**
 * The Temporal CLI's dev server as the TypeScript SDK downloads and runs it, for a machine with no
 * `temporal` installed (it needs the internet once; the download is cached).
 */
export interface DownloadedTemporalOptions {
  port: number;
  uiPort?: number;
  dbFilename?: string;
  searchAttributes: ReadonlyArray<{ name: string; type: string }>;
  extraArgs: readonly string[];
}

export interface DownloadedTemporal {
  address: string;
  stop(): Promise<void>;
}

export async function startDownloadedTemporal(options: DownloadedTemporalOptions): Promise<DownloadedTemporal> {
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  type ServerOptions = NonNullable<NonNullable<Parameters<typeof TestWorkflowEnvironment.createLocal>[0]>['server']>;
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: '127.0.0.1',
      port: options.port,
      ui: options.uiPort !== undefined,
      uiPort: options.uiPort,
      dbFilename: options.dbFilename,
      searchAttributes: options.searchAttributes as ServerOptions['searchAttributes'],
      extraArgs: [...options.extraArgs],
    },
  });
  return { address: env.address, stop: () => env.teardown() };
}
