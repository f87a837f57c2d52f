import { answerer, elicitFrom } from '@durable-mcp/handlers';
import { addressedAskProblem } from './addressed-ask-check';
import { expiryReachesHandler } from './question-wait';
import { addressedKeys, identityKeys, answererKey } from './addressing';
import { admission, decisionOf, type SlottedAnswer } from './admission';
import type { Addressing, AnswererIdentity } from './question';

const ISSUER = 'https://id.example.com';
const person = (subject: string, extra: Partial<AnswererIdentity> = {}): AnswererIdentity => ({
  id: `${ISSUER}|${subject}`,
  issuer: ISSUER,
  subject,
  scopes: [],
  groups: [],
  ...extra,
});
const manager = person('manager');
const caller = person('caller', { groups: ['finance'] });
// The caller's own key names its client; a sign-in of the same person is keyed without it.
const callerOfExchange = { id: `${caller.id}|mcp-client`, personId: caller.id };
const context = (taken: SlottedAnswer[] = [], at = 1_000) => ({ caller: callerOfExchange, askedAt: 0, at, taken });
const accept: SlottedAnswer['response'] = { action: 'accept', content: {} };
const decline: SlottedAnswer['response'] = { action: 'decline' };

describe('who may answer an addressed question', () => {
  const toManager: Addressing = { anyOf: [{ issuer: ISSUER, subject: 'manager' }] };

  it('admits a named principal and nobody else', () => {
    expect(admission(toManager, manager, context())).toEqual({ admitted: true, slot: 0 });
    expect(admission(toManager, person('intruder'), context())).toEqual({ admitted: false, reason: 'not-addressed' });
    // Same subject at another issuer is another person.
    expect(admission(toManager, { ...manager, issuer: 'https://evil.example' }, context()).admitted).toBe(false);
  });

  it('admits holders of a scope or members of a group', () => {
    const addressing: Addressing = { anyOf: [{ scope: 'refunds:approve' }, { group: 'finance' }] };
    expect(admission(addressing, person('a', { scopes: ['refunds:approve'] }), context()).admitted).toBe(true);
    expect(admission(addressing, person('b', { groups: ['finance'] }), context()).admitted).toBe(true);
    expect(admission(addressing, person('c', { groups: ['sales'] }), context()).admitted).toBe(false);
  });

  it('keeps the caller out when the question excludes it, even when a group admits it', () => {
    const addressing: Addressing = { anyOf: [{ group: 'finance' }], excludeCaller: true };
    expect(admission(addressing, caller, context())).toEqual({ admitted: false, reason: 'caller-excluded' });
    expect(admission({ anyOf: [{ group: 'finance' }] }, caller, context()).admitted).toBe(true);
  });

  it('knows the caller as the person behind its token, whatever client it called through', () => {
    const addressing: Addressing = { anyOf: [{ group: 'finance' }], excludeCaller: true };
    expect(admission(addressing, caller, context()).admitted).toBe(false);
    // An exchange recorded before the person's key existed knows its principal's key only.
    const throughItsClient = { ...caller, id: callerOfExchange.id };
    expect(
      admission(addressing, throughItsClient, { ...context(), caller: { id: callerOfExchange.id } }).admitted,
    ).toBe(false);
  });

  it('keeps people and services apart: a client id is never a subject', () => {
    const bot: AnswererIdentity = {
      id: `${ISSUER}|client:manager`,
      kind: 'service',
      clientId: 'manager',
      issuer: ISSUER,
      subject: 'manager',
      scopes: [],
      groups: [],
    };
    expect(admission(toManager, bot, context())).toEqual({ admitted: false, reason: 'not-addressed' });
    const toBot: Addressing = { anyOf: [answerer.service('manager')] };
    expect(admission(toBot, bot, context())).toEqual({ admitted: true, slot: 0 });
    expect(admission(toBot, person('manager', { kind: 'person' }), context()).admitted).toBe(false);
    expect(
      admission({ anyOf: [answerer.service('manager', { issuer: 'https://other.example' })] }, bot, context()).admitted,
    ).toBe(false);
    // A service is never the caller a question is addressed to, even one keyed as the caller's person.
    expect(admission({ anyOf: [{ caller: true }] }, { ...bot, id: caller.id }, context()).admitted).toBe(false);
    expect(identityKeys(bot)).toContain(answererKey(answerer.service('manager')));
    expect(identityKeys(bot)).not.toContain(answererKey({ issuer: ISSUER, subject: 'manager' }));
  });

  it("refuses a client's token (an agent's) whatever admits its holder, but lets it decline its own URL question", () => {
    const agent = person('caller', { kind: 'client', groups: ['finance'], scopes: ['refunds:approve'] });
    for (const addressing of [{ anyOf: [{ group: 'finance' }] }, { anyOf: [{ scope: 'refunds:approve' }] }, toManager])
      expect(admission(addressing, agent, { ...context(), action: 'accept' })).toEqual({
        admitted: false,
        reason: 'client-token',
      });
    const toCaller: Addressing = { anyOf: [{ caller: true }] };
    expect(admission(toCaller, agent, { ...context(), action: 'accept' }).admitted).toBe(false);
    expect(admission(toCaller, agent, { ...context(), action: 'decline' })).toEqual({ admitted: true, slot: 0 });
    expect(admission(toCaller, person('other', { kind: 'client' }), { ...context(), action: 'decline' }).admitted).toBe(
      false,
    );
    expect(identityKeys(agent)).toEqual([]);
  });

  it('fails closed when the caller cannot be matched with a person', () => {
    const unmatched = { ...callerOfExchange, unmatched: 'no email_verified' };
    const excluding: Addressing = { anyOf: [{ group: 'finance' }], excludeCaller: true };
    expect(admission(excluding, manager, { ...context(), caller: unmatched })).toEqual({
      admitted: false,
      reason: 'identity-unmatched',
    });
    expect(admission({ anyOf: [{ caller: true }] }, caller, { ...context(), caller: unmatched })).toEqual({
      admitted: false,
      reason: 'identity-unmatched',
    });
    // The caller's own client, bound to the caller by its channel, may still decline its URL question.
    const ownClient = { ...caller, kind: 'client' as const };
    expect(
      admission({ anyOf: [{ caller: true }] }, ownClient, { ...context(), caller: unmatched, action: 'decline' }),
    ).toEqual({
      admitted: true,
      slot: 0,
    });
    // Nothing to compare: a question for a group alone is answered as ever.
    expect(admission({ anyOf: [{ group: 'finance' }] }, caller, { ...context(), caller: unmatched }).admitted).toBe(
      true,
    );
  });

  it('admits the caller, and only the caller, to a question addressed to it', () => {
    const toCaller: Addressing = { anyOf: [{ caller: true }] };
    expect(admission(toCaller, caller, context())).toEqual({ admitted: true, slot: 0 });
    // The same subject at another issuer, or anyone else, is someone else.
    expect(
      admission(
        toCaller,
        person('caller', { issuer: 'https://evil.example', id: 'https://evil.example|caller' }),
        context(),
      ),
    ).toEqual({
      admitted: false,
      reason: 'not-addressed',
    });
    expect(admission(toCaller, manager, context()).admitted).toBe(false);
    expect(identityKeys(caller)).toContain(answererKey({ caller: true }, callerOfExchange));
    expect(identityKeys(manager)).not.toContain(answererKey({ caller: true }, callerOfExchange));
  });

  it('admits the escalation only once it is due', () => {
    const addressing: Addressing = { ...toManager, escalate: { afterMs: 5_000, to: [{ group: 'oncall' }] } };
    const oncall = person('oncall', { groups: ['oncall'] });
    expect(admission(addressing, oncall, context([], 4_999)).admitted).toBe(false);
    expect(admission(addressing, oncall, context([], 5_000)).admitted).toBe(true);
  });

  it('refuses every answer once the question is decided', () => {
    const taken = [{ slot: 0, by: manager, response: accept }];
    expect(admission(toManager, person('manager'), context(taken))).toEqual({ admitted: false, reason: 'closed' });
  });
});

describe('each of: two approvals', () => {
  const twoApprovals: Addressing = { eachOf: [{ group: 'finance' }, { group: 'legal' }] };
  const fin = person('fin', { groups: ['finance'] });
  const both = person('both', { groups: ['finance', 'legal'] });
  const legal = person('legal', { groups: ['legal'] });

  it('needs one accepting answer per slot, from different principals', () => {
    expect(admission(twoApprovals, both, context())).toEqual({ admitted: true, slot: 0 });
    const taken = [{ slot: 0, by: both, response: accept }];
    expect(decisionOf(twoApprovals, taken)).toBeUndefined();
    expect(admission(twoApprovals, both, context(taken))).toEqual({ admitted: false, reason: 'already-answered' });
    expect(admission(twoApprovals, fin, context(taken))).toEqual({ admitted: false, reason: 'not-addressed' });
    expect(admission(twoApprovals, legal, context(taken))).toEqual({ admitted: true, slot: 1 });
    expect(decisionOf(twoApprovals, [...taken, { slot: 1, by: legal, response: accept }])).toEqual(accept);
  });

  it('is decided by the first decline', () => {
    expect(decisionOf(twoApprovals, [{ slot: 1, by: legal, response: decline }])).toEqual(decline);
  });

  it('lets an escalation fill an open slot', () => {
    const addressing: Addressing = { ...twoApprovals, escalate: { afterMs: 10, to: [{ group: 'cfo' }] } };
    const cfo = person('cfo', { groups: ['cfo'] });
    expect(admission(addressing, cfo, context([{ slot: 0, by: fin, response: accept }], 10))).toEqual({
      admitted: true,
      slot: 1,
    });
  });
});

describe('keys an identity is found by', () => {
  it('match the keys of the answerers that name it', () => {
    const keys = identityKeys(person('a', { scopes: ['s'], groups: ['g'] }));
    expect(keys).toContain(answererKey({ issuer: ISSUER, subject: 'a' }));
    expect(keys).toContain(answererKey({ scope: 's' }));
    expect(keys).toContain(answererKey({ group: 'g' }));
    // A subject that looks like a scope is not one.
    expect(keys).not.toContain(answererKey({ scope: 'a' }));
  });
});

describe('what a handler may address', () => {
  const waitMs = () => 600_000;
  const question = (to: Addressing) =>
    elicitFrom(to, { message: 'Approve?', requestedSchema: { type: 'object', properties: {} } });

  it('accepts a well-formed addressed ask and finds its keys', () => {
    const asks = { approval: question({ anyOf: [{ scope: 'x' }] }) };
    expect(addressedAskProblem(asks, waitMs)).toBeUndefined();
    expect(addressedKeys(asks)).toEqual(['approval']);
  });

  it('refuses a mix of the caller and someone else', () => {
    const asks = {
      approval: question({ anyOf: [{ scope: 'x' }] }),
      reason: { method: 'elicitation/create', params: { message: 'Why?', requestedSchema: { type: 'object' } } },
    };
    expect(addressedAskProblem(asks, waitMs)).toMatch(/inputRequests\.reason asks the caller/);
  });

  it.each([
    [{}, /exactly one of anyOf and eachOf/],
    [{ anyOf: [] }, /anyOf must list at least one answerer/],
    [{ anyOf: [{ scope: '' }] }, /anyOf\[0\]\.scope/],
    [{ anyOf: [{ subject: 'x' }] }, /anyOf\[0\] must be one of/],
    [{ eachOf: [{ scope: 'a' }], anyOf: [{ scope: 'b' }] }, /exactly one/],
    [{ anyOf: [{ scope: 'a' }], remindAfterMs: 700_000 }, /remindAfterMs/],
    [{ anyOf: [{ scope: 'a' }], escalate: { afterMs: 10, to: [] } }, /escalate\.to must list/],
    [{ anyOf: [{ caller: true }], excludeCaller: true }, /addresses the caller and excludes the caller/],
    [{ anyOf: [{ caller: 'yes' }] }, /anyOf\[0\]\.caller must be true/],
    [{ anyOf: [{ scope: 'a' }], escalate: { afterMs: 10, to: [{ caller: true }] } }, /never escalated to/],
    [{ anyOf: [{ scope: 'a' }], onExpiry: 'retry' }, /onExpiry must be one of 'end', 'handler'/],
  ])('refuses the addressing %j', (to, problem) => {
    expect(addressedAskProblem({ approval: question(to as Addressing) }, waitMs)).toMatch(problem);
  });

  it('refuses an addressed URL elicitation or another kind of request', () => {
    const url = {
      method: 'elicitation/create',
      params: { mode: 'url', message: 'm', url: 'https://x' },
      addressedTo: { anyOf: [{ scope: 'a' }] },
    };
    expect(addressedAskProblem({ k: url }, waitMs)).toMatch(/an addressed elicitation is a form/);
    const roots = { method: 'roots/list', addressedTo: { anyOf: [{ scope: 'a' }] } };
    expect(addressedAskProblem({ k: roots }, waitMs)).toMatch(/only an elicitation/);
  });

  it('refuses an ask whose questions disagree on what their expiry does, and knows when it reaches the handler', () => {
    const mixed = {
      a: question({ anyOf: [{ scope: 'a' }], onExpiry: 'handler' }),
      b: question({ anyOf: [{ scope: 'b' }] }),
    };
    expect(addressedAskProblem(mixed, waitMs)).toMatch(/same addressedTo\.onExpiry/);
    expect(expiryReachesHandler({ a: { anyOf: [{ scope: 'a' }], onExpiry: 'handler' } })).toBe(true);
    expect(expiryReachesHandler({ a: { anyOf: [{ scope: 'a' }] } })).toBe(false);
    expect(expiryReachesHandler(undefined)).toBe(false);
  });
});
