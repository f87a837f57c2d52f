import {
  deadlineTimerSummary,
  endedDetails,
  endingActivitySummary,
  escapeMarkdown,
  exchangeStaticDetails,
  exchangeSummary,
  MAX_SUMMARY_BYTES,
  roundActivitySummary,
  runningDetails,
  waitingDetails,
} from './exchange-details';
import { describeAsk } from './ask-description';

const request = { method: 'tools/call' as const, target: 'deploy_service' };
const T0 = Date.parse('2026-08-01T10:00:00.000Z');

describe('static summary', () => {
  it('says method, target, era and client', () => {
    expect(exchangeSummary(request, 'modern', { client: { name: 'Claude Code', version: '2.1.0' } })).toBe(
      'tools/call deploy_service · modern · Claude Code 2.1.0',
    );
    expect(exchangeSummary(request, 'legacy', { client: { name: 'inspector' } })).toBe(
      'tools/call deploy_service · legacy era · inspector',
    );
    expect(exchangeSummary(request, 'modern')).toBe('tools/call deploy_service · modern');
  });

  it('stays within 200 bytes whatever the target and client are', () => {
    const summary = exchangeSummary({ method: 'resources/read', target: `file:///${'é'.repeat(1000)}` }, 'legacy', {
      client: { name: '客'.repeat(300), version: '9'.repeat(300) },
    });
    expect(Buffer.byteLength(summary, 'utf8')).toBeLessThanOrEqual(MAX_SUMMARY_BYTES);
    expect(summary.startsWith('resources/read file:///é')).toBe(true);
    expect(summary).toContain(' · legacy era · 客');
  });

  it('escapes what a client could turn into a link, an image or HTML', () => {
    const summary = exchangeSummary(request, 'modern', { client: { name: '![x](http://evil.example/t.png) <b>' } });
    expect(summary).toBe('tools/call deploy_service · modern · !\\[x\\](http://evil.example/t.png) \\<b\\>');
  });
});

describe('static details', () => {
  it("name method, target, era with its version, client, session, the handlers' version and the round bounds", () => {
    const details = exchangeStaticDetails(
      {
        exchangeId: 'e-1',
        era: 'legacy',
        request,
        roundTimeoutMs: 600_000,
        maxRounds: 8,
        roundActivity: 'local',
        handlerVersion: 'acme-tools@1.2.0',
      },
      { client: { name: 'Inspector', version: '0.9' }, session: '3fa9c0d1e2b4', protocolVersion: '2025-06-18' },
    );
    expect(details).toBe(
      [
        '**tools/call** deploy_service',
        '',
        '- Era: legacy era (2025-06-18)',
        '- Client: Inspector 0.9',
        '- Session: 3fa9c0d1e2b4',
        '- Handler version: acme-tools@1.2.0',
        '- Exchange: e-1',
        '- Rounds: each waits at most 600 s for its answers; at most 8 asks; run as local activities',
      ].join('\n'),
    );
  });

  it('say when the client sent no clientInfo, and name no session in the modern era', () => {
    const details = exchangeStaticDetails({
      exchangeId: 'e-2',
      era: 'modern',
      request,
      roundTimeoutMs: 1500,
      maxRounds: 2,
    });
    expect(details).toContain('- Client: not named (no clientInfo)');
    expect(details.endsWith('- Rounds: each waits at most 1.5 s for its answers; at most 2 asks')).toBe(true);
    expect(details).not.toContain('Session');
    expect(details).not.toContain('Task');
    expect(details).not.toContain('Handler version'); // an exchange started before versions were recorded
  });

  it("say that a call runs as a task, and how long it lives, never the task's id", () => {
    const details = exchangeStaticDetails({
      exchangeId: 'e-3',
      era: 'modern',
      request,
      roundTimeoutMs: 600_000,
      maxRounds: 8,
      task: { ttlMs: 3_600_000, taskId: 'secret-handle' } as { ttlMs: number },
    });
    expect(details.endsWith('- Task: ended and forgotten 3600 s after its creation (its TTL)')).toBe(true);
    expect(details).not.toContain('secret-handle');
  });
});

describe('command summaries', () => {
  it('read like the exchange', () => {
    expect(deadlineTimerSummary(2)).toBe('round 2 deadline');
    expect(roundActivitySummary(2, 'deploy_service')).toBe('round 2: deploy_service');
    expect(endingActivitySummary(-32001)).toBe('record ending: expired');
    expect(endingActivitySummary(-32012)).toBe('record ending: cancelled');
    expect(endingActivitySummary(-32603)).toBe('record ending: failed');
  });
});

describe('current details', () => {
  const ask = describeAsk(
    {
      approval: {
        method: 'elicitation/create',
        params: {
          message: 'Deploy checkout@2.1.0 to staging?\nChange summary: [faster](http://x)',
          requestedSchema: { properties: { approve: {}, ticket: {} } },
        },
      },
      summary: { method: 'sampling/createMessage', params: { messages: [] } },
      roots: { method: 'roots/list' },
    },
    T0,
  );

  it('say what the exchange waits for, since when and until when', () => {
    expect(
      waitingDetails({
        request,
        round: 2,
        asks: 2,
        maxRounds: 8,
        roundTimeoutMs: 600_000,
        waitingSince: T0,
        deadlineAt: T0 + 600_000,
        ask,
      }),
    ).toBe(
      [
        '**Waiting for the answers to round 2** of tools/call deploy_service',
        '',
        '- **approval** (elicitation/create, form): Deploy checkout@2.1.0 to staging? Change summary: \\[faster\\](http://x) · fields: approve, ticket',
        "- **summary** (sampling/createMessage): asks the client's model",
        "- **roots** (roots/list): asks for the client's roots",
        '',
        '- Waiting since 2026-08-01T10:00:00.000Z',
        '- Deadline 2026-08-01T10:10:00.000Z (the round timeout: 600 s)',
        '- Ask 2 of at most 8',
      ].join('\n'),
    );
  });

  it("state an addressed question's own deadline and whom it waits on, not the round timeout", () => {
    const details = waitingDetails({
      request: { method: 'tools/call', target: 'refund_order' },
      round: 1,
      asks: 1,
      maxRounds: 8,
      roundTimeoutMs: 4 * 3_600_000,
      waitingSince: T0,
      deadlineAt: T0 + 4 * 3_600_000,
      ask: { askedAt: T0, requests: [{ key: 'approval', method: 'elicitation/create', mode: 'form' }] },
      questions: {
        approval: {
          anyOf: [{ group: 'refund-approvers' }, { scope: 'refunds:approve' }],
          excludeCaller: true,
          waitMs: 4 * 3_600_000,
          escalate: { afterMs: 2 * 3_600_000, to: [{ group: 'finance-leads' }] },
        },
      },
    });
    expect(details).toContain(
      '- approval waits on group refund-approvers or scope refunds:approve (not the caller) until 2026-08-01T14:00:00.000Z (its own wait: 4 h); after 2 h also group finance-leads',
    );
    expect(details).toContain("- Deadline 2026-08-01T14:00:00.000Z (the questions' own wait: 4 h)");
    expect(details).not.toContain('600 s');
  });

  it('name the keys answered so far, and make do with the keys of an ask recorded before descriptions', () => {
    const details = waitingDetails({
      request,
      round: 1,
      asks: 1,
      maxRounds: 8,
      roundTimeoutMs: 600_000,
      waitingSince: T0,
      askKeys: ['roots', 'summary'],
      answeredKeys: ['roots'],
    });
    expect(details).toContain('\n- **roots** (unknown)\n- **summary** (unknown)\n');
    expect(details).toContain('- Deadline 600 s after the ask');
    expect(details).toContain('- Answered so far: roots');
  });

  it('bound the keys they name, whatever the client answered', () => {
    const many = Array.from({ length: 30 }, (_, i) => `${'k'.repeat(100)}${i}`);
    const details = waitingDetails({
      request,
      round: 1,
      asks: 1,
      maxRounds: 8,
      roundTimeoutMs: 600_000,
      waitingSince: T0,
      askKeys: many,
      answeredKeys: many,
    });
    expect(details.split('\n').filter((line) => line.startsWith('- **'))).toHaveLength(20);
    expect(details).toContain(', …');
    expect(details.length).toBeLessThan(4_000);
  });

  it('say which round runs, and since when', () => {
    expect(runningDetails(request, 1, T0)).toBe(
      '**Running round 1** of tools/call deploy_service: started at 2026-08-01T10:00:00.000Z',
    );
    expect(runningDetails(request, 3, T0)).toBe(
      '**Running round 3** of tools/call deploy_service: the answers to round 2 arrived at 2026-08-01T10:00:00.000Z',
    );
  });

  it('say how the exchange ended', () => {
    const base = { request, round: 3, asks: 2, maxRounds: 8, roundTimeoutMs: 600_000, at: T0 };
    expect(endedDetails({ ...base, status: 'completed' })).toBe(
      [
        '**Ended: completed** in round 3 of tools/call deploy_service',
        '',
        '- the handler returned its result',
        '- at 2026-08-01T10:00:00.000Z, after 2 asks',
      ].join('\n'),
    );
    expect(endedDetails({ ...base, status: 'expired', errorCode: -32001 })).toContain(
      '- no answers arrived within 600 s (error -32001)',
    );
    expect(endedDetails({ ...base, status: 'cancelled', errorCode: -32012, cancelledBy: 'operator' })).toContain(
      '- cancelled by an operator (error -32012)',
    );
    expect(endedDetails({ ...base, status: 'capped', errorCode: -32011 })).toContain(
      '- the handler asked for input more than 8 times (error -32011)',
    );
    expect(endedDetails({ ...base, status: 'failed', errorCode: -32603, asks: 1 })).toContain(
      '- failed (error -32603)\n- at 2026-08-01T10:00:00.000Z, after 1 ask',
    );
  });
});

describe('escapeMarkdown', () => {
  it('escapes links, images, HTML, code, emphasis and table cells, and leaves names as they are', () => {
    expect(escapeMarkdown('a|b `c` *d* [e](f) <g> \\')).toBe('a\\|b \\`c\\` \\*d\\* \\[e\\](f) \\<g\\> \\\\');
    expect(escapeMarkdown('deploy_service')).toBe('deploy_service');
  });
});
