// A question's `requireSignIn`: who meets it (a person's sign-in, never a service), where it is
// judged (admission, so the API's judgement and the workflow's alike), what the answerer is told,
// and what a handler may write.
import { elicitFrom } from '@durable-mcp/handlers';
import { addressedAskProblem } from './addressed-ask-check';
import { admission, meetsSignInRequirement, type SlottedAnswer } from './admission';
import { judgeAnswer, refusalMessage } from './answer-judgement';
import type { Addressing, AnswererIdentity, QuestionView } from './question';

const ISSUER = 'https://id.example.com';
const NOW_S = 1_800_000_000;
const NOW = NOW_S * 1000;

const person = (subject: string, extra: Partial<AnswererIdentity> = {}): AnswererIdentity => ({
  id: `${ISSUER}|${subject}`,
  kind: 'person',
  issuer: ISSUER,
  subject,
  scopes: [],
  groups: ['finance'],
  ...extra,
});
const caller = { id: `${ISSUER}|caller|mcp-client`, personId: `${ISSUER}|caller` };
const context = (taken: SlottedAnswer[] = [], at = NOW) => ({ caller, askedAt: NOW - 60_000, at, taken });

const withMfa: Addressing = { anyOf: [{ group: 'finance' }], requireSignIn: { maxAgeS: 300, amr: ['mfa'] } };
const fresh = { authTime: NOW_S - 60, amr: ['pwd', 'otp', 'mfa'] };

describe('a question that requires a sign-in', () => {
  it('admits a person whose sign-in is recent enough and used the methods asked for', () => {
    expect(admission(withMfa, person('dana', fresh), context())).toEqual({ admitted: true, slot: 0 });
  });

  it('refuses a person without MFA, with an old sign-in, or whose ID token did not say', () => {
    const refused = { admitted: false, reason: 'step-up-required' };
    expect(admission(withMfa, person('dana', { ...fresh, amr: ['pwd'] }), context())).toEqual(refused);
    expect(admission(withMfa, person('dana', { ...fresh, authTime: NOW_S - 301 }), context())).toEqual(refused);
    expect(admission(withMfa, person('dana', { amr: ['mfa'] }), context())).toEqual(refused);
    expect(admission(withMfa, person('dana'), context())).toEqual(refused);
  });

  it('judges the age at the time the answer was taken, so the workflow judges as the API did', () => {
    const dana = person('dana', fresh);
    expect(admission(withMfa, dana, context([], NOW + 240_000)).admitted).toBe(true);
    expect(admission(withMfa, dana, context([], NOW + 241_000))).toEqual({
      admitted: false,
      reason: 'step-up-required',
    });
  });

  it('checks the acr among the values asked for', () => {
    const addressing: Addressing = { anyOf: [{ group: 'finance' }], requireSignIn: { acr: ['urn:mfa', 'urn:hwk'] } };
    expect(admission(addressing, person('dana', { acr: 'urn:hwk' }), context()).admitted).toBe(true);
    expect(admission(addressing, person('dana', { acr: 'urn:pwd' }), context())).toEqual({
      admitted: false,
      reason: 'step-up-required',
    });
  });

  it('is never met by a service at the answer API, however it is addressed', () => {
    const bot: AnswererIdentity = {
      id: `${ISSUER}|client:bot`,
      kind: 'service',
      clientId: 'bot',
      issuer: ISSUER,
      subject: 'bot',
      scopes: [],
      groups: ['finance'],
    };
    const addressing: Addressing = { anyOf: [{ service: 'bot' }], requireSignIn: { acr: ['urn:mfa'] } };
    expect(admission({ anyOf: [{ service: 'bot' }] }, bot, context()).admitted).toBe(true);
    expect(admission(addressing, bot, context())).toEqual({ admitted: false, reason: 'step-up-required' });
    expect(meetsSignInRequirement(addressing, { ...bot, acr: 'urn:mfa' }, NOW)).toBe(false);
  });

  it('still tells someone it is not addressed to only that, and the excluded caller only that', () => {
    expect(admission(withMfa, person('sam', { groups: [] }), context())).toEqual({
      admitted: false,
      reason: 'not-addressed',
    });
    const excluding: Addressing = { ...withMfa, excludeCaller: true };
    expect(admission(excluding, person('caller'), context())).toEqual({ admitted: false, reason: 'caller-excluded' });
  });

  it('holds an "each of" answerer to it as well, and lets one who meets it fill a slot', () => {
    const addressing: Addressing = {
      eachOf: [{ group: 'finance' }, { group: 'finance' }],
      requireSignIn: { amr: ['mfa'] },
    };
    const first: SlottedAnswer = { slot: 0, by: { id: `${ISSUER}|ann` }, response: { action: 'accept' } };
    expect(admission(addressing, person('bo', { amr: ['pwd'] }), context([first]))).toEqual({
      admitted: false,
      reason: 'step-up-required',
    });
    expect(admission(addressing, person('bo', { amr: ['mfa'] }), context([first]))).toEqual({
      admitted: true,
      slot: 1,
    });
  });

  it('asks nothing when absent or empty: questions recorded before it judge as they did', () => {
    const plain: Addressing = { anyOf: [{ group: 'finance' }] };
    expect(admission(plain, person('dana'), context()).admitted).toBe(true);
    expect(meetsSignInRequirement({ ...plain, requireSignIn: {} }, person('dana'), NOW)).toBe(true);
    const legacy: AnswererIdentity = { id: `${ISSUER}|dana`, subject: 'dana', scopes: [], groups: ['finance'] };
    expect(admission(plain, legacy, context()).admitted).toBe(true);
  });

  it('lets the caller’s client decline its own URL-mode question: that approves nothing', () => {
    const toCaller: Addressing = { anyOf: [{ caller: true }], requireSignIn: { amr: ['mfa'] } };
    const client: AnswererIdentity = { id: caller.personId, kind: 'client', subject: 'caller', scopes: [], groups: [] };
    expect(admission(toCaller, client, { ...context(), action: 'decline' }).admitted).toBe(true);
    expect(admission(toCaller, client, { ...context(), action: 'accept' })).toEqual({
      admitted: false,
      reason: 'client-token',
    });
  });
});

describe('the judgement of an answer to it', () => {
  const question: Pick<
    QuestionView,
    'status' | 'deadlineAt' | 'askedAt' | 'addressing' | 'shownDigest' | 'caller' | 'answers'
  > = {
    status: 'waiting',
    deadlineAt: NOW + 600_000,
    askedAt: NOW - 60_000,
    addressing: withMfa,
    shownDigest: 'd',
    caller: { ...caller, subject: 'caller' },
    answers: [],
  };
  const attempt = (identity: AnswererIdentity) => ({
    identity,
    shownDigest: 'd',
    response: { action: 'accept' as const, content: {} },
    now: NOW,
  });

  it('refuses it step-up-required, and says what sign-in it needs', () => {
    const judged = judgeAnswer(question, [], attempt(person('dana', { amr: ['pwd'] })));
    expect(judged).toEqual({ taken: false, refusal: 'step-up-required' });
    expect(refusalMessage('step-up-required', question)).toBe(
      'This question must be answered by a person with a sign-in within the last 5 minutes, using multi-factor authentication (MFA): sign in again on the answer page to answer it (a service at the answer API cannot).',
    );
    expect(judgeAnswer(question, [], attempt(person('dana', fresh)))).toEqual({ taken: true, slot: 0, decided: true });
  });
});

describe('what a handler may require', () => {
  const waitMs = () => 600_000;
  const ask = (requireSignIn: unknown) => ({
    approval: elicitFrom({ anyOf: [{ group: 'finance' }], requireSignIn } as Addressing, {
      message: 'Approve?',
      requestedSchema: { type: 'object', properties: {} },
    }),
  });

  it('takes a recent sign-in, acr values and methods', () => {
    expect(addressedAskProblem(ask({ maxAgeS: 300, acr: ['urn:mfa'], amr: ['mfa', 'hwk'] }), waitMs)).toBeUndefined();
    expect(addressedAskProblem(ask({ amr: ['mfa'] }), waitMs)).toBeUndefined();
  });

  it.each([
    [null, /requireSignIn must be an object/],
    [['mfa'], /requireSignIn must be an object/],
    [{}, /requireSignIn must require at least one of maxAgeS, acr and amr/],
    [{ mfa: true }, /requireSignIn\.mfa is not a sign-in requirement/],
    [{ maxAgeS: 0 }, /requireSignIn\.maxAgeS must be a whole number of seconds from 60 to 86400/],
    [{ maxAgeS: 30 }, /maxAgeS/],
    [{ maxAgeS: 90.5 }, /maxAgeS/],
    [{ maxAgeS: 86_401 }, /maxAgeS/],
    [{ maxAgeS: '300' }, /maxAgeS/],
    [{ amr: [] }, /requireSignIn\.amr must list 1 to 10 values/],
    [{ amr: 'mfa' }, /requireSignIn\.amr must list/],
    [{ amr: ['mfa', ''] }, /requireSignIn\.amr must list/],
    [{ acr: ['urn:a urn:b'] }, /requireSignIn\.acr must list .* without spaces/],
    [{ acr: ['x'.repeat(65)] }, /requireSignIn\.acr must list/],
  ])('refuses requireSignIn %j', (requirement, problem) => {
    expect(addressedAskProblem(ask(requirement), waitMs)).toMatch(problem);
  });

  it('refuses it on a question only services or scope holders may answer: no sign-in could meet it', () => {
    const addressed = (to: Addressing['anyOf']) => ({
      approval: elicitFrom({ anyOf: to, requireSignIn: { amr: ['mfa'] } } as Addressing, {
        message: 'Approve?',
        requestedSchema: { type: 'object', properties: {} },
      }),
    });
    expect(addressedAskProblem(addressed([{ service: 'bot' }, { scope: 'refunds:approve' }]), waitMs)).toMatch(
      /requireSignIn asks a person's sign-in, and only services or scope holders are addressed/,
    );
    expect(addressedAskProblem(addressed([{ service: 'bot' }, { group: 'finance' }]), waitMs)).toBeUndefined();
  });
});
