/**
 * The upstream MCP servers the service stands in front of (the gateway): a file for any number of
 * them, or these variables for one. Each is declared once, with what docs/configuration.md says of it.
 */
import { z } from 'zod';
import { documented } from './documented';
import { integer, unsetWhenEmpty } from './value-kinds';

/** Upstreams (the gateway) */
export const UPSTREAM_VARIABLES = {
  UPSTREAMS_FILE: documented(
    unsetWhenEmpty(z.string().trim().min(1)),
    'a JSON file declaring the upstream MCP servers whose tools, prompts and resources the service serves as durable exchanges (`{ "upstreams": [ { "name", "url", "auth", "toolPrefix", "callTimeoutMs", "roundActivity", "refreshEveryMs", "retries", "circuitFailures", "circuitOpenMs", "maxResultBytes", "maxListed", "forwardCaller", "policies" } ] }`); see [In front of your MCP server](gateway.md). Not with `UPSTREAM_URL`',
    '(none)',
  ),
  UPSTREAMS_RELOAD_MS: documented(
    integer(500, 3_600_000).default(5_000),
    "how often `UPSTREAMS_FILE` is read again: its upstreams' changed `policies` apply from the next call on, each change logged; other changes apply after a restart",
  ),
  UPSTREAMS_START_WAIT_MS: documented(
    integer(0, 600_000).default(5_000),
    "how long a starting process waits for the upstreams' first `tools/list` before it serves: an upstream not listed by then (down, or slow) is listed on in the background, and its tools are served, and announced to clients as a tool-list change, once it is",
  ),
  UPSTREAM_URL: documented(
    unsetWhenEmpty(z.string().trim().min(1)),
    "one upstream MCP server's Streamable HTTP endpoint (2026-07-28), declared without a file: its tools, prompts and resources are listed beside the handler set's and each call, get or read of one runs as a durable exchange ([In front of your MCP server](gateway.md))",
    '(none)',
  ),
  UPSTREAM_NAME: documented(
    z.string().trim().default('upstream'),
    "`UPSTREAM_URL`'s name, in logs, metrics and errors",
  ),
  UPSTREAM_TOOL_PREFIX: documented(
    z.string().trim().default(''),
    "put before each of `UPSTREAM_URL`'s tool and prompt names where the service lists them (`billing_` makes `billing_refund`)",
    '(none)',
  ),
  UPSTREAM_BEARER_TOKEN: documented(
    unsetWhenEmpty(z.string().min(1)),
    "the bearer token the gateway itself sends to `UPSTREAM_URL` (never the caller's, which does not leave the service)",
    '(none)',
  ),
  UPSTREAM_CALL_TIMEOUT_MS: documented(
    integer(100, 600_000).default(25_000),
    'how long one call to `UPSTREAM_URL` (`tools/call`, `tools/list`) may take; past it the call is tried again, then gets a tool error. Its three attempts and their pauses must fit under `HANDLER_TIMEOUT_MS` (`LOCAL_HANDLER_TIMEOUT_MS` when `UPSTREAM_ROUND_ACTIVITY=local`)',
  ),
  UPSTREAM_ROUND_ACTIVITY: documented(
    z.enum(['regular', 'local']).default('regular'),
    "how the rounds of a call to `UPSTREAM_URL` run: `regular` activities (heartbeating, bounded by `HANDLER_TIMEOUT_MS`), or `local` ones, inside the workflow task that decides them (fewer Temporal actions, no task-queue round trip), bounded by `LOCAL_HANDLER_TIMEOUT_MS`, which `UPSTREAM_CALL_TIMEOUT_MS`'s three attempts must then fit under; for an upstream that answers in well under a second ([What it costs](gateway.md#what-it-costs))",
  ),
};
