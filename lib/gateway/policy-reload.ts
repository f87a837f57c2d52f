/**
 * Reads `UPSTREAMS_FILE` again while the process runs, so an operator changes policies without a
 * restart: every `everyMs` the file is read, and when its text changed and it is valid, each
 * upstream's policies are replaced (the next call's first round decides by them) and every change
 * is logged: the upstream, its policies' names before and after, and what changed (policy-changes.ts:
 * the policies added, removed, and changed with their declarations before and after). A file that no longer parses,
 * or whose policies would make a round outlast its bound (a decision point's wait), keeps the
 * policies in force, and says why at `error`. Changes to anything but policies (URLs,
 * credentials, timeouts) are logged as needing a restart, and not applied.
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from '../log';
import type { UpstreamCatalog } from './upstream-catalog';
import { parseUpstreamFile, type Upstream } from '../upstreams/upstream-declaration';
import { policyChanges } from './policy-changes';
import { upstreamsBudgetProblem, type RoundBounds } from '../upstreams/call-budget';

const policyNames = (upstream: Pick<Upstream, 'policies'> | undefined) => upstream?.policies.map((p) => p.name) ?? [];
const withoutPolicies = ({ policies: _policies, ...rest }: Upstream) => JSON.stringify(rest);

export interface PolicyReload {
  /** Reads the file once now (what the timer does). */
  check(): Promise<void>;
  stop(): void;
}

export function startPolicyReload(
  file: string,
  declared: readonly Upstream[],
  catalog: Pick<UpstreamCatalog, 'policies' | 'policiesChanged'>,
  log: Logger,
  everyMs: number,
  bounds: RoundBounds,
): PolicyReload {
  let current = [...declared];
  // Unset at first: the first read compares the file's policies with those in force, so an edit
  // made since the service read it is applied.
  let lastText: string | undefined;
  let unreadable = false;

  async function check(): Promise<void> {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      // Said once until it can be read again, not at every tick.
      if (!unreadable) log.error({ file, err: error }, 'UPSTREAMS_FILE cannot be read; the policies in force are kept');
      unreadable = true;
      return;
    }
    unreadable = false;
    if (text === lastText) return;
    lastText = text;
    let next: Upstream[];
    try {
      next = parseUpstreamFile(text, process.env, `UPSTREAMS_FILE ${file}`);
    } catch (error) {
      log.error(
        { file, reason: (error as Error).message },
        'UPSTREAMS_FILE is invalid; the policies in force are kept',
      );
      return;
    }
    // A decision point a policy now asks waits in the round too: the served connection settings with
    // the new policies must still fit each round's bound (call-budget.ts), as at the start.
    const policiesOf = (upstream: Upstream) =>
      next.find((n) => n.name === upstream.name)?.policies ?? upstream.policies;
    const overBudget = upstreamsBudgetProblem(
      current.map((upstream) => ({ ...upstream, policies: policiesOf(upstream) })),
      bounds,
    );
    if (overBudget) {
      log.error({ file, reason: overBudget }, 'UPSTREAMS_FILE is invalid; the policies in force are kept');
      return;
    }
    const before = new Map(current.map((upstream) => [upstream.name, upstream]));
    let changed = false;
    for (const upstream of next) {
      const was = before.get(upstream.name);
      if (!was) {
        log.warn({ upstream: upstream.name }, 'UPSTREAMS_FILE declares a new upstream: it is served after a restart');
        continue;
      }
      if (withoutPolicies(was) !== withoutPolicies(upstream))
        log.warn({ upstream: upstream.name }, "an upstream's connection settings changed: they apply after a restart");
      const changes = policyChanges(was.policies, upstream.policies);
      if (changes) {
        changed = true;
        log.info(
          { upstream: upstream.name, before: policyNames(was), after: policyNames(upstream), ...changes },
          'upstream policies changed',
        );
      }
    }
    for (const name of before.keys())
      if (!next.some((upstream) => upstream.name === name))
        log.warn({ upstream: name }, 'UPSTREAMS_FILE no longer declares an upstream: it is served until a restart');
    // Upstreams served now keep serving; each takes the policies the file gives it now. One the file
    // no longer declares keeps those in force (never fewer policies than the file ever gave it).
    current = current.map((upstream) => ({ ...upstream, policies: policiesOf(upstream) }));
    if (!changed) return;
    catalog.policies.replace(current);
    catalog.policiesChanged();
  }

  // One check at a time: a slow read never lands after a later one.
  let running: Promise<void> = Promise.resolve();
  const next = () => (running = running.then(check, check));
  const timer = setInterval(() => void next(), everyMs);
  timer.unref();
  return { check: next, stop: () => clearInterval(timer) };
}
