/**
 * The principal a request is made by, as the bearer gate established it: kept on the response's
 * locals for the request's life, read by both eras' routes. A route the gate did not run on has no
 * caller, and asking for one is a programming error (500), never a silent anonymous caller.
 */
import type { Response } from 'express';
import type { Principal } from '../../../../lib/exchange/principal';

const CALLER = Symbol('caller');
const GROUPS = Symbol('caller groups');

type WithCaller = Record<typeof CALLER, Principal | undefined> & Record<typeof GROUPS, string[] | undefined>;

/** `groups`: what the token's groups claim names (ANSWER_GROUPS_CLAIM), for the answer API only: exchanges never keep them. */
export function setCaller(res: Response, principal: Principal, groups: string[] = []): void {
  (res.locals as WithCaller)[CALLER] = principal;
  (res.locals as WithCaller)[GROUPS] = groups;
}

/** The groups the caller's token names (none for the anonymous caller). */
export const callerGroupsOf = (res: Response): string[] => (res.locals as WithCaller)[GROUPS] ?? [];

export function callerOf(res: Response): Principal {
  const caller = (res.locals as WithCaller)[CALLER];
  if (!caller) throw new Error('no caller: the bearer gate did not run on this route');
  return caller;
}

/** The caller, if the gate ran (for the request log line, which every route writes). */
export const knownCallerOf = (res: Response): Principal | undefined => (res.locals as WithCaller)[CALLER];
