/**
 * The Temporal priority an exchange's workflow starts with, and its activities carry: a fairness
 * key naming whose work it is (FAIRNESS_KEY: the caller's principal, or its tenant where its token
 * names one), and the priority its handler declares. With fairness on at the server, a task queue
 * hands out waiting tasks key by key in turn, so a flood from one key does not delay another's
 * rounds (docs/operators.md "Fairness"); without it, the keys are kept and ignored.
 *
 * A key is a digest, never the principal or tenant itself: Temporal keeps it on every workflow and
 * activity task and shows it in each history's start and scheduling events, and it is at most 64
 * bytes there, where a principal may take 255. The digest is not secret (anyone who knows a
 * principal computes its key, as an operator setting a key's weight does), only bounded and free
 * of names.
 */
import { createHash } from 'node:crypto';
import type { Priority } from '@temporalio/common';
import type { TaskPriority } from '@durable-mcp/handlers';

/** What FAIRNESS_KEY may name. */
export const FAIRNESS_KEY_SOURCES = ['principal', 'tenant'] as const;
export type FairnessKeySource = (typeof FAIRNESS_KEY_SOURCES)[number];

/** Whose work an exchange is: its principal's key and, when its token names one, its tenant. */
export interface FairnessCaller {
  principal: string;
  tenant?: string;
}

/** Hex characters of SHA-256 a key keeps: 128 bits, as unlikely to collide as a random UUID. */
const DIGEST_HEX_CHARS = 32;

const digestOf = (value: string): string =>
  createHash('sha256').update(value, 'utf8').digest('hex').slice(0, DIGEST_HEX_CHARS);

/**
 * The fairness key of `caller`'s exchanges: `tenant:<digest>` when keyed by tenant and its token
 * named one, else `principal:<digest>`, the digest being the first 32 hex characters of the SHA-256
 * of the UTF-8 tenant or principal key (`printf %s "$id" | sha256sum | cut -c1-32`).
 */
export function fairnessKeyOf(caller: FairnessCaller, source: FairnessKeySource): string {
  if (source === 'tenant' && caller.tenant !== undefined) return `tenant:${digestOf(caller.tenant)}`;
  return `principal:${digestOf(caller.principal)}`;
}

/** The priority of an exchange: its caller's fairness key, and its handler's priority when declared. */
export function exchangePriority(
  caller: FairnessCaller,
  source: FairnessKeySource,
  priorityKey: TaskPriority | undefined,
): Priority {
  return { fairnessKey: fairnessKeyOf(caller, source), ...(priorityKey !== undefined ? { priorityKey } : {}) };
}
