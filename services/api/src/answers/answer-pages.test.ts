import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type Request } from 'express';
import pino from 'pino';
import type { QuestionStore } from '../../../../lib/db/question-store';
import { questionPageUrl } from './answer-endpoint';
import { answerPagesOff, answerPagesRouter, PAGE_HEADERS } from './answer-pages';
import { DEV_SIGN_IN_BANNER } from './page/dev-sign-in-banner';
import { answerer, NOW, questionView } from './page/test-question';
import type {
  AnswerAttemptInput,
  AnswerReply,
  QuestionAnswering,
} from '../../../../lib/exchange-client/question-answering';
import type { AnswerSignIn } from './sign-in/answer-sign-in';

const SCHEMA = { type: 'object', properties: { amount: { type: 'number', minimum: 1 } }, required: ['amount'] };
const mine = questionView({ requestedSchema: SCHEMA, addressing: { anyOf: [{ group: 'finance' }] } });
const theirs = questionView({ id: 'q-theirs', addressing: { anyOf: [{ group: 'legal' }] } });
const ana = { ...answerer, groups: ['finance'] };
// Questions addressed to their callers: Ana's own call (made through her desk app), and Bob's.
const toCaller = { anyOf: [{ caller: true as const }] };
const anasOwn = questionView({
  id: 'q-anas-own',
  caller: { id: `${ana.id}|desk-app`, personId: ana.id, subject: 'ana' },
  addressing: toCaller,
});
const bobsOwn = questionView({ id: 'q-bobs-own', addressing: toCaller });
// Ana's call, to be approved by finance (a group of hers) and never by its caller.
const anasExcluded = questionView({
  id: 'q-anas-excluded',
  caller: { id: `${ana.id}|desk-app`, personId: ana.id, subject: 'ana' },
  addressing: { anyOf: [{ group: 'finance' }], excludeCaller: true },
});

/** Signed in when the request says `x-test-user: ana`; the CSRF token is `good`. */
const signIn: AnswerSignIn = {
  router: Router(),
  answererOf: (req: Request) => (req.get('x-test-user') === 'ana' ? ana : undefined),
  csrfTokenFor: (req: Request) => (req.get('x-test-user') === 'ana' ? 'good' : undefined),
  checkCsrf: (req: Request, token: unknown) => req.get('x-test-user') === 'ana' && token === 'good',
};

let reply: AnswerReply = { kind: 'taken', question: mine, decided: true };
const answered: unknown[] = [];
const answering = {
  answer: async (input: unknown) => (answered.push(input), reply),
  deliver: async () => undefined,
} as unknown as QuestionAnswering;
const questions = {
  read: async (id: string) => [mine, theirs, anasOwn, bobsOwn, anasExcluded].find((q) => q.id === id),
  waitingFor: async () => ({ questions: [mine], moreWaiting: 0 }),
} as unknown as QuestionStore;

let server: Server;
let base = '';
beforeAll(async () => {
  const app = express();
  const log = pino({ level: 'silent' });
  app.use(
    '/answers',
    answerPagesRouter({ signIn, questions, answering, maxBodyBytes: 256, maxListed: 10, log, now: () => NOW }),
  );
  app.use('/off', answerPagesOff());
  // The same pages under a sign-in with a banner (the development one's), where every page must show it.
  app.use(
    '/dev-answers',
    answerPagesRouter({
      signIn: { ...signIn, banner: DEV_SIGN_IN_BANNER },
      questions,
      answering,
      maxBodyBytes: 256,
      maxListed: 10,
      log,
      now: () => NOW,
    }),
  );
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const get = (path: string, user?: string) =>
  fetch(`${base}${path}`, { headers: user ? { 'x-test-user': user } : {}, redirect: 'manual' });
const post = (path: string, fields: Record<string, string>, user = 'ana') =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'x-test-user': user, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });
const expectHeaders = (res: Response) => {
  for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(res.headers.get(name)).toBe(value);
};

describe('the answer pages', () => {
  it('sends a signed-out inbox to the sign-in, and shows a signed-in one', async () => {
    const out = await get('/answers');
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe('/answers/sign-in?return=%2Fanswers');
    expectHeaders(out);
    const inbox = await get('/answers', 'ana');
    expect(inbox.status).toBe(200);
    expectHeaders(inbox);
    expect(await inbox.text()).toContain('href="/answers/q/q-123"');
  });

  it('shows only the sign-in to a signed-out visitor; a foreign question is not addressed to you, and says nothing of what it asks', async () => {
    const out = await get('/answers/q/q-123');
    const page = await out.text();
    expect(page).toContain('/answers/sign-in?return=%2Fanswers%2Fq%2Fq-123');
    expect(page).not.toContain('approve_refund');
    const foreign = await get('/answers/q/q-theirs', 'ana');
    expect(foreign.status).toBe(403);
    expectHeaders(foreign);
    const foreignPage = await foreign.text();
    expect(foreignPage).toContain('<h1>Not addressed to you</h1>');
    for (const secret of ['approve_refund', 'A-17', 'bob', 'Refund', '<form method="post" action="/answers/q/'])
      expect(foreignPage).not.toContain(secret);
    const missing = await get('/answers/q/nope', 'ana');
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<h1>No such question</h1>');
  });

  it('shows an excluded caller their call and why they cannot answer, with no form, and only records a post of theirs', async () => {
    answered.length = 0;
    const shown = await get('/answers/q/q-anas-excluded', 'ana');
    expect(shown.status).toBe(200);
    const page = await shown.text();
    expect(page).toContain('You made this call, and this question must be answered by someone else');
    expect(page).toContain('<code>&quot;A-17&quot;</code>');
    expect(page).not.toContain('action="/answers/q/q-anas-excluded"');
    const posted = await post('/answers/q/q-anas-excluded', { csrf: 'good', action: 'accept', shown: 'digest-1' });
    expect(posted.status).toBe(403);
    expect(await posted.text()).toContain('You made this call');
    const foreign = await post('/answers/q/q-theirs', { csrf: 'good', action: 'accept', shown: 'digest-1' });
    expect(foreign.status).toBe(403);
    // Both posts go to be judged (and refused, and recorded) as attempts, never taken from the page's say-so.
    expect(
      (answered as AnswerAttemptInput[]).map((attempt) => [attempt.questionId, attempt.via, attempt.response.action]),
    ).toEqual([
      ['q-anas-excluded', 'page', 'accept'],
      ['q-theirs', 'page', 'accept'],
    ]);
  });

  it('opens a question addressed to its caller to the same person signed in, and to nobody else', async () => {
    const own = await get('/answers/q/q-anas-own', 'ana');
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('action="/answers/q/q-anas-own"');
    const others = await get('/answers/q/q-bobs-own', 'ana');
    expect(others.status).toBe(403);
    expect(await others.text()).not.toContain('approve_refund');
  });

  it('refuses a post without the CSRF token before anything is answered', async () => {
    answered.length = 0;
    const res = await post('/answers/q/q-123', { action: 'accept', 'content.amount': '5', shown: 'digest-1' });
    expect(res.status).toBe(403);
    expect(answered).toEqual([]);
  });

  it('shows a field error with what was posted (422), a refusal with its status, and sends a taken answer back (303)', async () => {
    answered.length = 0;
    const invalid = await post('/answers/q/q-123', {
      action: 'accept',
      'content.amount': '0',
      csrf: 'good',
      shown: 'x',
    });
    expect(invalid.status).toBe(422);
    expect(await invalid.text()).toMatch(/value="0"/);
    expect(answered).toEqual([]);

    reply = {
      kind: 'refused',
      question: mine,
      refusal: 'stale',
      message: 'This question changed since it was shown to you.',
      viewable: true,
    };
    const stale = await post('/answers/q/q-123', { action: 'accept', 'content.amount': '5', csrf: 'good', shown: 'x' });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain('This question changed since it was shown to you.');

    reply = { kind: 'taken', question: mine, decided: true };
    const taken = await post('/answers/q/q-123', {
      action: 'accept',
      'content.amount': '5',
      csrf: 'good',
      shown: 'digest-1',
    });
    expect(taken.status).toBe(303);
    expect(taken.headers.get('location')).toBe('/answers/q/q-123');
    expect(answered.at(-1)).toMatchObject({
      questionId: 'q-123',
      via: 'page',
      shownDigest: 'digest-1',
      response: { action: 'accept', content: { amount: 5 } },
    });
  });

  it('refuses a body over the limit with a page', async () => {
    const res = await post('/answers/q/q-123', { csrf: 'good', note: 'x'.repeat(400) });
    expect(res.status).toBe(413);
    expectHeaders(res);
  });
});

describe('the answer pages under a sign-in with a banner', () => {
  it('shows it on every page: the inbox, a question, a notice, a refused post, a body too large', async () => {
    const pages = [
      await get('/dev-answers', 'ana'),
      await get('/dev-answers/q/q-123', 'ana'),
      await get('/dev-answers/q/q-123'),
      await get('/dev-answers/q/nope', 'ana'),
      await post('/dev-answers/q/q-123', { action: 'accept', 'content.amount': '5' }),
      await post('/dev-answers/q/q-123', { csrf: 'good', note: 'x'.repeat(400) }),
    ];
    expect(pages.map((page) => page.status)).toEqual([200, 200, 200, 404, 403, 413]);
    for (const page of pages) expect(await page.text()).toContain(DEV_SIGN_IN_BANNER.text);
    expect(await (await get('/answers', 'ana')).text()).not.toContain('class="banner"');
  });
});

describe('the answer page when it is off, and question URLs', () => {
  it('answers 404 naming ANSWER_OIDC_ISSUER', async () => {
    const res = await get('/off/q/q-123');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('ANSWER_OIDC_ISSUER');
  });

  it('names a question absolutely under ANSWER_PUBLIC_URL, else by its path', () => {
    expect(questionPageUrl({ answers: { publicOrigin: 'https://mcp.example.com' } })('q 1')).toBe(
      'https://mcp.example.com/answers/q/q%201',
    );
    expect(questionPageUrl({ answers: {} })('q1')).toBe('/answers/q/q1');
  });
});
