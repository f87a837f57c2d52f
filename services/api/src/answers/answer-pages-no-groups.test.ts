// A person signed in without any group, at a question addressed to a group: the page says their
// sign-in brought no groups and what to check, instead of only "not addressed to you"; it says
// nothing more of the question, and nothing of groups to anyone else it turns away.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type Request } from 'express';
import pino from 'pino';
import type { QuestionStore } from '../../../../lib/db/question-store';
import type { QuestionAnswering } from '../../../../lib/exchange-client/question-answering';
import type { AnswererIdentity } from '../../../../lib/questions/question';
import { answerPagesRouter } from './answer-pages';
import { signInLacksGroups } from './page/groups-hint';
import { renderNotice } from './page/notice';
import { answerer, NOW, questionView } from './page/test-question';
import type { AnswerSignIn } from './sign-in/answer-sign-in';

const forFinance = questionView({ id: 'q-finance', addressing: { anyOf: [{ group: 'finance' }] } });
const escalatesToFinance = questionView({
  id: 'q-escalates',
  addressing: { anyOf: [{ service: 'bot' }], escalate: { afterMs: 60_000, to: [{ group: 'finance' }] } },
});
const forBob = questionView({
  id: 'q-bob',
  addressing: { anyOf: [{ issuer: 'https://id.example.com', subject: 'bob' }] },
});

const people: Record<string, AnswererIdentity> = {
  nora: { ...answerer, id: 'p-nora', subject: 'nora', groups: [] },
  lena: { ...answerer, id: 'p-lena', subject: 'lena', groups: ['legal'] },
};

describe('signInLacksGroups', () => {
  it('holds for a person without groups at a question that names a group, first or by escalation', () => {
    expect(signInLacksGroups(forFinance, people.nora!)).toBe(true);
    expect(signInLacksGroups(escalatesToFinance, people.nora!)).toBe(true);
    expect(
      signInLacksGroups(questionView({ addressing: { eachOf: [{ group: 'a' }, { group: 'b' }] } }), people.nora!),
    ).toBe(true);
  });

  it('does not for a person with any group, nor at a question that names none', () => {
    expect(signInLacksGroups(forFinance, people.lena!)).toBe(false);
    expect(signInLacksGroups(forBob, people.nora!)).toBe(false);
  });
});

describe('the no-groups notice', () => {
  it('names the variables to check and not the group', () => {
    const page = renderNotice({ kind: 'notAddressed', noGroups: true });
    expect(page).toContain('<h1>Your sign-in brought no groups</h1>');
    expect(page).toContain('<code>ANSWER_OIDC_SCOPES</code>');
    expect(page).toContain('<code>ANSWER_GROUPS_CLAIM</code>');
    expect(page).toContain('<a href="/answers">Your questions</a>');
    expect(renderNotice({ kind: 'notAddressed' })).not.toContain('groups');
  });
});

describe('the answer page, to a person signed in without groups', () => {
  const signIn: AnswerSignIn = {
    router: Router(),
    answererOf: (req: Request) => people[req.get('x-test-user') ?? ''],
    csrfTokenFor: () => 'good',
    checkCsrf: (_req: Request, token: unknown) => token === 'good',
  };
  const questions = {
    read: async (id: string) => [forFinance, escalatesToFinance, forBob].find((q) => q.id === id),
  } as unknown as QuestionStore;
  const answered: unknown[] = [];
  const answering = {
    answer: async (input: unknown) => (answered.push(input), { kind: 'refused', refusal: 'not-addressed' }),
  } as unknown as QuestionAnswering;
  let server: Server;
  let base = '';
  beforeAll(async () => {
    const app = express();
    const log = pino({ level: 'silent' });
    app.use(
      '/answers',
      answerPagesRouter({ signIn, questions, answering, maxBodyBytes: 256, maxListed: 10, log, now: () => NOW }),
    );
    server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const page = async (id: string, user: string, method: 'GET' | 'POST' = 'GET') => {
    const res = await fetch(`${base}/answers/q/${id}`, {
      method,
      headers: { 'x-test-user': user, 'content-type': 'application/x-www-form-urlencoded' },
      ...(method === 'POST'
        ? { body: new URLSearchParams({ csrf: 'good', action: 'accept', shown: 'digest-1' }) }
        : {}),
    });
    return { status: res.status, text: await res.text() };
  };

  it('says their sign-in brought no groups, at a question for a group, and still nothing of what it asks', async () => {
    for (const id of ['q-finance', 'q-escalates']) {
      const shown = await page(id, 'nora');
      expect(shown.status).toBe(403);
      expect(shown.text).toContain('<h1>Your sign-in brought no groups</h1>');
      for (const secret of ['finance', 'approve_refund', 'A-17', 'bob', 'Refund'])
        expect(shown.text).not.toContain(secret);
    }
    // A post of theirs is judged and recorded as every attempt is, and told the same.
    answered.length = 0;
    const posted = await page('q-finance', 'nora', 'POST');
    expect(posted.status).toBe(403);
    expect(posted.text).toContain('Your sign-in brought no groups');
    expect(answered).toHaveLength(1);
  });

  it('says only "not addressed to you" at a question for no group, and to a person with groups', async () => {
    for (const [id, user] of [
      ['q-bob', 'nora'],
      ['q-finance', 'lena'],
    ] as const) {
      const shown = await page(id, user);
      expect(shown.status).toBe(403);
      expect(shown.text).toContain('<h1>Not addressed to you</h1>');
      expect(shown.text).not.toContain('groups');
    }
  });
});
