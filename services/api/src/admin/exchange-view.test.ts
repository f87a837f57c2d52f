// Pins how the admin API shows an exchange: ages and waits, each ask beside its answers, the UI link.
import type { ExchangeSummary, RoundDetail } from '../../../../lib/db/admin-store';
import { detailView, roundsView, summaryView, temporalUiLink } from './exchange-view';

const at = (iso: string) => new Date(iso);
const summary: ExchangeSummary = {
  id: 'd4c8db0f-f213-43c1-a995-5d5aa381be64',
  workflowId: 'exchange-d4c8db0f-f213-43c1-a995-5d5aa381be64',
  status: 'running',
  era: 'legacy',
  method: 'tools/call',
  target: 'deploy_service',
  principal: 'anonymous',
  handlerVersion: 'demo@0.1.0',
  rounds: 2,
  asks: 2,
  createdAt: at('2026-12-01T12:00:00.000Z'),
  updatedAt: at('2026-12-01T12:01:00.000Z'),
  session: '0123456789ab',
  lastOutcome: 'ask',
  waitingSince: at('2026-12-01T12:01:00.000Z'),
  deadlineAt: at('2026-12-01T12:11:00.000Z'),
  position: { createdAt: '2026-12-01T12:00:00.000000Z', id: 'd4c8db0f-f213-43c1-a995-5d5aa381be64' },
};
const context = {
  now: Date.parse('2026-12-01T12:06:00.000Z'),
  ui: { baseUrl: 'http://ui:8080', namespace: 'prod ns' },
};

describe('the admin views', () => {
  it('link a workflow in the Temporal Web UI only when a UI is configured', () => {
    expect(temporalUiLink(context.ui, 'exchange-1')).toBe('http://ui:8080/namespaces/prod%20ns/workflows/exchange-1');
    expect(temporalUiLink({ namespace: 'default' }, 'exchange-1')).toBeUndefined();
  });

  it("show ages and waits in seconds, the session tag, the handlers' version and the link, never the list position", () => {
    const view = summaryView(summary, context);
    expect(view).toMatchObject({
      handlerVersion: 'demo@0.1.0',
      ageSeconds: 360,
      waitingSince: '2026-12-01T12:01:00.000Z',
      waitingSeconds: 300,
      deadlineAt: '2026-12-01T12:11:00.000Z',
      session: '0123456789ab',
      temporalUiUrl: `http://ui:8080/namespaces/prod%20ns/workflows/${summary.workflowId}`,
    });
    expect(view).not.toHaveProperty('position');
    const { handlerVersion: _, ...unversioned } = summary;
    expect(summaryView(unversioned, context)).not.toHaveProperty('handlerVersion');
    expect(summaryView(summary, { ...context, ui: { namespace: 'default' } })).not.toHaveProperty('temporalUiUrl');
  });

  it('put each ask beside the answers the next round ran with, and when they came', () => {
    const history: RoundDetail[] = [
      {
        round: 1,
        kind: 'ask',
        outcome: { inputRequests: { roots: { method: 'roots/list' } } },
        durationMs: 5,
        recordedAt: at('2026-12-01T12:00:01.000Z'),
        deadlineAt: at('2026-12-01T12:10:01.000Z'),
      },
      {
        round: 2,
        kind: 'ask',
        answers: { roots: { roots: [] } },
        outcome: { inputRequests: { approve: { method: 'elicitation/create' } } },
        durationMs: 500,
        recordedAt: at('2026-12-01T12:00:31.000Z'),
        deadlineAt: at('2026-12-01T12:10:31.000Z'),
      },
      {
        round: 3,
        kind: 'error',
        outcome: { error: { code: -32001, message: 'Exchange expired' } },
        recordedAt: at('2026-12-01T12:10:31.000Z'),
      },
    ];
    expect(roundsView(history)).toEqual([
      {
        round: 1,
        kind: 'ask',
        recordedAt: '2026-12-01T12:00:01.000Z',
        durationMs: 5,
        inputRequests: { roots: { method: 'roots/list' } },
        deadlineAt: '2026-12-01T12:10:01.000Z',
        answers: { roots: { roots: [] } },
        answeredAt: '2026-12-01T12:00:30.500Z',
        waitedMs: 29_500,
      },
      {
        round: 2,
        kind: 'ask',
        recordedAt: '2026-12-01T12:00:31.000Z',
        durationMs: 500,
        inputRequests: { approve: { method: 'elicitation/create' } },
        deadlineAt: '2026-12-01T12:10:31.000Z',
      },
      {
        round: 3,
        kind: 'error',
        recordedAt: '2026-12-01T12:10:31.000Z',
        error: { code: -32001, message: 'Exchange expired' },
      },
    ]);
  });

  it("say what Temporal says of the workflow, beside Postgres's record", () => {
    const view = detailView({ exchange: summary, history: [] }, 'TERMINATED', context);
    expect(view.workflow).toEqual({
      id: summary.workflowId,
      status: 'TERMINATED',
      temporalUiUrl: `http://ui:8080/namespaces/prod%20ns/workflows/${summary.workflowId}`,
    });
    expect(view.rounds).toEqual([]);
    expect(view).not.toHaveProperty('session');
  });
});
