/**
 * The not-scored scenarios this server requires of itself (`conformance/required-extra-<set>.yml`):
 * a requirement set scores only what its frozen lists name, and runs the rest (`not_scored`:
 * pending, extensions) for visibility only, so a scenario we mean to keep passing has to be run
 * and judged on its own. This module reads the list and checks it against the requirement set.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { projectRoot } from '../lib/paths';

export function requiredExtraFile(requirements: string): string {
  return path.join(projectRoot(), 'conformance', `required-extra-${requirements}.yml`);
}

export function requirementSetFile(requirements: string): string {
  return path.join(
    projectRoot(),
    'node_modules',
    '@modelcontextprotocol',
    'conformance',
    'requirements',
    `${requirements}.yaml`,
  );
}

/** The server scenarios a required-extra file lists; anything but a list of names is refused. */
export function parseRequiredExtra(yamlText: string): string[] {
  const server = (parse(yamlText) as { server?: unknown } | null)?.server ?? [];
  if (!Array.isArray(server) || !server.every((entry) => typeof entry === 'string' && entry.length > 0)) {
    throw new Error('a required-extra file lists `server:` as scenario names, one per entry');
  }
  return server as string[];
}

/** The server scenarios a requirement set runs without scoring (its `not_scored` entries on the server leg). */
export function notScoredServerScenarios(requirementSetYaml: string): string[] {
  const parsed = parse(requirementSetYaml) as { not_scored?: unknown } | null;
  const entries = Array.isArray(parsed?.not_scored) ? (parsed.not_scored as unknown[]) : [];
  return entries.flatMap((entry) => {
    const { scenario, leg } = (entry ?? {}) as { scenario?: unknown; leg?: unknown };
    return typeof scenario === 'string' && (leg === undefined || leg === 'server') ? [scenario] : [];
  });
}

/** The entries of `extra` that the requirement set does not list as not-scored server scenarios. */
export function staleRequiredExtra(extra: readonly string[], notScored: readonly string[]): string[] {
  const known = new Set(notScored);
  return extra.filter((scenario) => !known.has(scenario));
}

export interface RequiredExtra {
  scenarios: string[];
  /** Entries that no longer belong on the list (scored now, or not in the set at all). */
  stale: string[];
}

export function readRequiredExtra(requirements: string): RequiredExtra {
  const file = requiredExtraFile(requirements);
  if (!existsSync(file)) return { scenarios: [], stale: [] };
  const scenarios = parseRequiredExtra(readFileSync(file, 'utf8'));
  const notScored = notScoredServerScenarios(readFileSync(requirementSetFile(requirements), 'utf8'));
  return { scenarios, stale: staleRequiredExtra(scenarios, notScored) };
}
