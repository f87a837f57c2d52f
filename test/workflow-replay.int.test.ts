/**
 * Exchanges running when a new version is deployed must go on: today's workflow code replays the
 * histories an earlier version recorded (test/fixtures/histories-before-ui-metadata), including
 * exchanges that asked under the old version and were answered under this one, without a
 * nondeterminism error. No server: a replay worker runs the histories against the bundle.
 */
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { createLogger } from '../lib/log';
import { installTemporalLogger } from '../lib/temporal-logging';
import { readHistories } from './support/history-json';
import { readStackInfo } from './support/stack-info';

const FIXTURES = path.join(__dirname, 'fixtures', 'histories-before-ui-metadata');

describe('workflow replay of histories recorded by an earlier version', () => {
  const histories = readHistories(FIXTURES);

  beforeAll(() => installTemporalLogger(createLogger('test', 'silent'), 'WARN'));

  it('has the histories to replay', () => {
    expect(histories.map((h) => h.name)).toEqual(
      expect.arrayContaining([
        'modern-local-waiting.json',
        'modern-local-completed.json',
        'modern-regular-waiting.json',
        'modern-regular-answered-after-deploy.json',
        'legacy-local-completed.json',
      ]),
    );
  });

  it('replays every one of them with the current workflow code', async () => {
    const { workflowBundlePath } = readStackInfo();
    const results: Array<{ name: string; error?: string }> = [];
    const replays = Worker.runReplayHistories(
      { workflowBundle: { codePath: workflowBundlePath } },
      histories.map(({ name, history }) => ({ workflowId: name, history })),
    );
    for await (const result of replays) {
      results.push({ name: result.workflowId, ...(result.error ? { error: String(result.error.message) } : {}) });
    }
    expect(results).toEqual(histories.map(({ name }) => ({ name })));
  });
});
