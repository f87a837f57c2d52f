/**
 * The tools, prompts and resources of every upstream, as handlers, kept fresh: each upstream's
 * `tools/list` (and, where it declares them, `prompts/list`, `resources/list` and
 * `resources/templates/list`, upstream-offers.ts) is read when the catalog starts, again as soon
 * as the upstream announces a change to any of them (upstream-tool-watch.ts: one subscription per
 * upstream; a burst of announcements is one listing, coalesced-run.ts), and again every
 * `refreshEveryMs` whatever it announces. An upstream that cannot be listed keeps what it last
 * listed (nothing, before its first listing) and is tried again soon, backing off from a second
 * to a minute (never later than its next refresh), so one that comes up after the service is
 * served within a minute of it; it never stops the process, nor holds its start longer than
 * `startWaitMs`: a listing still under way then goes on, and what it lists is served (and
 * announced as a change) once it completes.
 *
 * A tool every call of which a policy denies is not listed at all. A name (a URI, for a resource)
 * already taken, by a local handler or by an upstream declared before, is not listed again: the
 * first holder keeps it, and the shadowed entry is logged once (first-holders.ts).
 */
import type { PromptHandler, ResourceHandler, ResourceTemplateHandler, ToolHandler } from '@durable-mcp/handlers';
import type { Logger } from '../log';
import type { Upstream } from '../upstreams/upstream-declaration';
import { createUpstreamClient, type UpstreamClient } from './upstream-client';
import { guardedUpstreamClient } from './guarded-upstream';
import { upstreamToolHandler } from './upstream-tool';
import { servable } from './servable-tools';
import { alwaysDenied } from '../upstreams/call-policy';
import { createPolicyBook, type PolicyBook } from './policy-book';
import { coalescedRun, type CoalescedRun, type CoalescedRunOptions } from './coalesced-run';
import { watchUpstreamTools, type ToolWatch } from './upstream-tool-watch';
import { listOffers, NO_OFFERS, type UpstreamOffers } from './upstream-offers';
import { firstHolders } from './first-holders';
import { backoffDelay, type BackoffPolicy } from './retry-backoff';

/**
 * An upstream's announcements are listed once they have been quiet for a quarter second, and a
 * steady stream of them at most once every five seconds: an upstream cannot make the gateway list
 * it more often than that, whatever it sends.
 */
export const RELIST_AFTER_ANNOUNCEMENT: CoalescedRunOptions = { quietMs: 250, maxWaitMs: 5_000 };

/** After a failed listing, the next is tried a second later, then two, four, ... up to a minute. */
export const RELIST_AFTER_FAILURE: BackoffPolicy = { initialMs: 1_000, maxMs: 60_000, factor: 2 };

export interface UpstreamCatalogOptions {
  /** How long `start()` waits for the first listings (UPSTREAMS_START_WAIT_MS). */
  startWaitMs: number;
  clientOf?: (upstream: Upstream) => UpstreamClient;
  relist?: CoalescedRunOptions;
  retry?: BackoffPolicy;
}

/** What one listing did. */
type Listing = 'changed' | 'same' | 'failed';

interface Entry {
  upstream: Upstream;
  client: UpstreamClient;
  tools: ToolHandler[];
  /** The upstream's own names of `tools`, in the same order. */
  names: string[];
  /** The listing `tools` was made from, to tell a change (a new tool, a schema, a description). */
  listing: string;
  /** Its prompts, resources and resource templates, as last listed. */
  offers: UpstreamOffers;
  /** The listing under way, if one is: a refresh never overlaps one still running. */
  listingNow?: Promise<void>;
  timer?: NodeJS.Timeout;
  /** The listing an announcement asks for, coalesced. */
  relist?: CoalescedRun;
  watch?: ToolWatch;
  /** Failed listings in a row, and the next try after the last of them. */
  failures: number;
  retry?: NodeJS.Timeout;
}

export interface UpstreamCatalog {
  /** Every upstream's tools, in declaration order, names not yet `taken`. */
  tools(taken: ReadonlySet<string>): ToolHandler[];
  /** Every upstream's prompts, in declaration order, (prefixed) names not yet `taken`. */
  prompts(taken: ReadonlySet<string>): PromptHandler[];
  /** Every upstream's resources, in declaration order, URIs not yet `taken`. */
  resources(taken: ReadonlySet<string>): ResourceHandler[];
  /** Every upstream's resource templates, in declaration order, `uriTemplate`s not yet `taken`. */
  resourceTemplates(taken: ReadonlySet<string>): ResourceTemplateHandler[];
  /** Lists every upstream again now. */
  refresh(): Promise<void>;
  /**
   * Starts listing each upstream, and keeping them fresh in the background; resolves once every
   * first listing ended, or after `startWaitMs` however many did.
   */
  start(): Promise<void>;
  close(): Promise<void>;
  /** Called after a listing, or new policies, changed what an upstream offers. */
  onChange(listener: () => void): void;
  /** The policies every round decides by (replaced on reload: `policiesChanged` then). */
  policies: PolicyBook;
  /** Says the policies were replaced, so tools they now deny outright are listed no more (or again). */
  policiesChanged(): void;
}

export function createUpstreamCatalog(
  upstreams: Upstream[],
  log: Logger,
  options: UpstreamCatalogOptions,
): UpstreamCatalog {
  const clientOf =
    options.clientOf ?? ((upstream: Upstream) => guardedUpstreamClient(upstream, createUpstreamClient(upstream)));
  const policies = createPolicyBook(upstreams);
  const entries: Entry[] = upstreams.map((upstream) => ({
    upstream,
    client: clientOf(upstream),
    tools: [],
    names: [],
    listing: '[]',
    offers: NO_OFFERS,
    failures: 0,
  }));
  const byName = new Map(entries.map((entry) => [entry.upstream.name, entry]));
  let running = false;
  const listeners: Array<() => void> = [];
  const saidShadowed = new Set<string>();
  /** Said once per entry: one whose name (`field`: its URI, for a resource) another holds is not served. */
  const shadowedOf = (what: string, field: string) => (upstream: string, key: string) => {
    if (saidShadowed.has(`${what}\n${upstream}\n${key}`)) return;
    saidShadowed.add(`${what}\n${upstream}\n${key}`);
    log.warn(
      { upstream, [field]: key },
      `an upstream ${what} is not served: a local one or an earlier upstream holds it`,
    );
  };
  const holders = <H>(of: (entry: Entry) => ReadonlyArray<H>) =>
    entries.map((entry) => ({ upstream: entry.upstream.name, handlers: of(entry) }));

  /** Lists all `entry` offers, unless a listing of it is still under way (then that one is awaited). */
  function list(entry: Entry): Promise<void> {
    entry.listingNow ??= listOnce(entry).finally(() => (entry.listingNow = undefined));
    return entry.listingNow;
  }

  async function listOnce(entry: Entry): Promise<void> {
    const tools = await listTools(entry);
    // An upstream that could not list its tools (down, hanging) is not asked for the rest too.
    const others = tools === 'failed' ? 'failed' : await listOthers(entry);
    if (tools === 'changed' || others === 'changed') for (const listener of listeners) listener();
  }

  /** Lists `entry`'s tools: whether they changed. */
  async function listTools(entry: Entry): Promise<Listing> {
    const { upstream } = entry;
    try {
      const listed = await entry.client.listTools();
      entry.failures = 0;
      clearTimeout(entry.retry);
      if (listed.length > upstream.maxListed)
        log.warn(
          { upstream: upstream.name, listed: listed.length, kept: upstream.maxListed },
          'upstream lists more tools than one upstream may add (maxListed): the rest are not served',
        );
      const kept = servable(listed.slice(0, upstream.maxListed), upstream, log);
      const listing = JSON.stringify(kept);
      if (listing === entry.listing) return 'same';
      entry.listing = listing;
      entry.tools = kept.map((tool) => upstreamToolHandler(upstream, entry.client, tool, policies));
      entry.names = kept.map((tool) => tool.name);
      log.info({ upstream: upstream.name, tools: entry.tools.length }, 'upstream tools listed');
      return 'changed';
    } catch (error) {
      log.warn(
        { upstream: upstream.name, err: error, kept: entry.tools.length },
        'upstream tools could not be listed; its last listing is kept',
      );
      retrySoon(entry);
      return 'failed';
    }
  }

  /** Lists `entry`'s prompts, resources and resource templates: whether they changed. */
  async function listOthers(entry: Entry): Promise<Listing> {
    const { upstream } = entry;
    try {
      const offers = await listOffers(upstream, entry.client, log);
      if (offers.listing === entry.offers.listing) return 'same';
      entry.offers = offers;
      const [prompts, resources] = [offers.prompts.length, offers.resources.length];
      log.info({ upstream: upstream.name, prompts, resources }, 'upstream prompts and resources listed');
      return 'changed';
    } catch (error) {
      log.warn(
        { upstream: upstream.name, err: error },
        'upstream prompts and resources could not be listed; its last listing is kept',
      );
      retrySoon(entry);
      return 'failed';
    }
  }

  /** A failed listing is tried again before the next refresh: an upstream that comes up late is served soon. */
  function retrySoon(entry: Entry): void {
    if (!running) return;
    const delay = backoffDelay(entry.failures, options.retry ?? RELIST_AFTER_FAILURE);
    entry.failures += 1;
    clearTimeout(entry.retry);
    entry.retry = setTimeout(() => void list(entry), Math.min(delay, entry.upstream.refreshEveryMs));
    entry.retry.unref();
  }

  return {
    tools: (taken) =>
      firstHolders(
        holders((entry) => entry.tools),
        (handler) => handler.tool.name,
        taken,
        shadowedOf('tool', 'tool'),
        // A tool every call of which a policy denies is not listed, and takes no name.
        (upstream, index) => alwaysDenied(policies.of(upstream), byName.get(upstream)!.names[index]!),
      ),
    prompts: (taken) =>
      firstHolders(
        holders((entry) => entry.offers.prompts),
        (handler) => handler.prompt.name,
        taken,
        shadowedOf('prompt', 'prompt'),
      ),
    resources: (taken) =>
      firstHolders(
        holders((entry) => entry.offers.resources),
        (handler) => handler.resource.uri,
        taken,
        shadowedOf('resource', 'uri'),
      ),
    resourceTemplates: (taken) =>
      firstHolders(
        holders((entry) => entry.offers.resourceTemplates),
        (handler) => handler.template.uriTemplate,
        taken,
        shadowedOf('resource template', 'uriTemplate'),
      ),
    async refresh() {
      await Promise.all(entries.map(list));
    },
    async start() {
      running = true;
      const firstListings = Promise.all(entries.map(list));
      for (const entry of entries) {
        entry.timer = setInterval(() => void list(entry), entry.upstream.refreshEveryMs);
        entry.timer.unref();
        const relist = coalescedRun(() => list(entry), options.relist ?? RELIST_AFTER_ANNOUNCEMENT);
        entry.relist = relist;
        entry.watch = watchUpstreamTools(entry.upstream, entry.client, () => relist.signal(), log);
      }
      let waited: NodeJS.Timeout | undefined;
      const waitOver = new Promise<'waited'>((resolve) => {
        waited = setTimeout(() => resolve('waited'), options.startWaitMs);
        waited.unref();
      });
      const first = await Promise.race([firstListings, waitOver]);
      clearTimeout(waited);
      if (first === 'waited')
        log.warn(
          { waitedMs: options.startWaitMs, upstreams: entries.filter((e) => e.listingNow).map((e) => e.upstream.name) },
          'upstreams not listed yet: the service starts without their tools, served once listed',
        );
    },
    async close() {
      running = false;
      for (const entry of entries) {
        clearInterval(entry.timer);
        clearTimeout(entry.retry);
        entry.relist?.stop();
        entry.watch?.stop();
      }
      await Promise.all(entries.map((entry) => entry.client.close()));
    },
    onChange(listener) {
      listeners.push(listener);
    },
    policies,
    policiesChanged() {
      for (const listener of listeners) listener();
    },
  };
}
