/**
 * What a development stack prints once it serves: where each endpoint is, for `npm run dev` and
 * `durable-mcp dev` alike.
 */
export interface DevBannerFacts {
  /** The API's MCP endpoint, `http://host:port/mcp`. */
  url: string;
  handlerSet: string;
  /** The handler set's version (`name@version`, else a digest of its module). */
  handlerVersion: string;
  /** The answer page's URL and how one signs in there, or why it is off (dev-environment.ts `answerPageFrom`). */
  answerPage: string;
  /** Where the admin token is: its variable, or the file the stack keeps it in. */
  adminTokenFrom: string;
  /** The worker's metrics URL, or why there is none. */
  workerMetrics: string;
  temporalAddress: string;
  temporalUiUrl?: string;
  /** The codec endpoint trusts loopback (CODEC_TRUST_LOOPBACK): the Web UI decodes with no sign-in. */
  codecTrustsLoopback?: boolean;
  /** Extra lines before the closing "Ctrl-C" line (what the stack watches, say). */
  notes?: string[];
}

export function devBanner(facts: DevBannerFacts): string {
  const at = (route: string) => facts.url.replace(/\/mcp$/, route);
  return [
    '',
    `  MCP endpoint     ${facts.url}   (2026-07-28 and legacy clients; handler set "${facts.handlerSet}", ${facts.handlerVersion})`,
    `  2024-11-05 SSE   ${at('/sse')}`,
    `  Answer page      ${facts.answerPage}`,
    `  Health           ${at('/healthz')}   readiness ${at('/readyz')}`,
    `  Metrics          ${at('/metrics')}   worker ${facts.workerMetrics}`,
    `  Admin            ${at('/admin')}   (durable-mcp exchanges list; ${facts.adminTokenFrom})`,
    ...(facts.codecTrustsLoopback
      ? [
          `  Codec            ${at('/codec')}   (what Temporal holds is encrypted: the Web UI decodes it here, trusted`,
          `                   from this machine alone: CODEC_TRUST_LOOPBACK; the CLI: --codec-endpoint ${at('/codec')})`,
        ]
      : [
          `  Codec            ${at('/codec')}   (what Temporal holds is encrypted: the Web UI decodes it here once you sign in`,
          `                   at ${at('/codec/sign-in')} and turn on "Include cross-origin credentials" in its codec settings)`,
        ]),
    `  Temporal         ${facts.temporalAddress}`,
    `  Temporal Web UI  ${facts.temporalUiUrl ?? '(external Temporal: see its own UI)'}`,
    '',
    ...(facts.notes ?? []).map((note) => `  ${note}`),
    '  Ctrl-C stops everything.',
    '',
  ].join('\n');
}
