/**
 * The soak's tasks (the Tasks extension): the onboarding wizard called as a task over the fault
 * suite's task client (test/support/task-client.ts), polled with `tasks/get` until it asks for
 * each step and answered with `tasks/update`, as task-windows.fault.test.ts does, on whichever API
 * is up. A task's exchange is known to its client by the task id only (Postgres maps it).
 * An update sent again after its reply was lost may be refused as already answered: then the
 * answer is in doubt, not failed, and the client goes on to the next ask.
 */
import { createdTaskId, taskClient, type TaskClient } from '../test/support/task-client';
import type { RpcReply } from '../test/support/raw-mcp';
import { stepAnswers, welcomeText } from '../test/faults/support/wizard-exchange';
import { onLiveApi, think, untilOnLiveApi, type SoakContext, type SoakTrack } from './soak-context';

const STEP_KEYS = { 1: 'profile', 2: 'team', 3: 'confirm' } as const;
const ENDED = new Set(['completed', 'failed', 'cancelled']);

type Task = Record<string, unknown>;
const asks = (task: Task, key: string) =>
  task.status === 'input_required' && Object.keys((task.inputRequests as object | undefined) ?? {}).includes(key);

export async function runTask(ctx: SoakContext, n: number, track: SoakTrack): Promise<void> {
  const name = `t${n}`;
  let retried = false;
  const send = (what: string, op: (client: TaskClient) => Promise<RpcReply>) => {
    let attempts = 0;
    return onLiveApi(
      ctx,
      what,
      async (url) => {
        retried = ++attempts > 1;
        return op(taskClient(() => url, await ctx.auth.callerHeaders()));
      },
      n % 2,
    );
  };
  const created = await send('the task call', (client) => client.call('onboarding_wizard'));
  if (created.body.error)
    return ctx.ledger.end('task', 'error reply', `${created.body.error.code} ${created.body.error.message}`);
  const taskId = createdTaskId(created);
  const ref = (track.ref = `task:${taskId}`);
  const state = (what: string, done: (task: Task) => boolean) =>
    untilOnLiveApi(ctx, what, async (url) => {
      const reply = await taskClient(() => url, await ctx.auth.callerHeaders()).get(taskId);
      if (reply.body.error) throw new Error(`tasks/get: ${reply.body.error.code} ${reply.body.error.message}`);
      const task = reply.body.result!;
      return done(task) || ENDED.has(String(task.status)) ? task : undefined;
    });

  for (const step of [1, 2, 3] as const) {
    const task = await state(`the task asking for ${STEP_KEYS[step]}`, (t) => asks(t, STEP_KEYS[step]));
    if (!asks(task, STEP_KEYS[step]))
      return ctx.ledger.end('task', 'unexpected result', `${task.status} before step ${step}'s ask`, ref);
    await think(ctx);
    ctx.ledger.sending(ref, step);
    const reply = await send(`tasks/update ${step}`, (client) => client.update(taskId, stepAnswers(name, step)));
    if (!reply.body.error) ctx.ledger.accept(ref, step);
    else if (!retried)
      return ctx.ledger.end('task', 'error reply', `${reply.body.error.code} ${reply.body.error.message}`, ref);
  }
  const task = await state('the task to end', () => false);
  const text = (task.result as { content?: Array<{ text?: string }> } | undefined)?.content?.[0]?.text;
  if (task.status === 'completed' && text === welcomeText(name)) return ctx.ledger.end('task', 'completed');
  ctx.ledger.end('task', 'unexpected result', `${task.status}: ${JSON.stringify(task.result).slice(0, 200)}`, ref);
}
