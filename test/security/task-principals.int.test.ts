/**
 * A task is bound to the principal that created it, with real tokens from a real authorization
 * server (test/support/oauth-stack.ts): under another principal's token its id is refused by
 * tasks/get, tasks/update and tasks/cancel exactly like an unknown id (-32602, nothing about it
 * revealed), and none of them touches it; it stays its owner's to answer and finish.
 */
import { accept } from '../support/raw-mcp';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack';
import { createdTaskId, taskClient } from '../support/task-client';

let stack: OAuthStack;
beforeAll(async () => {
  stack = await startOAuthStack({ HANDLER_SET: 'conformance' });
}, 120_000);
afterAll(async () => {
  await stack?.close();
});

const as = async (name: 'alice' | 'bob') =>
  taskClient(() => stack.service.url, { authorization: await stack.bearer(name) });

describe("principal A's task under principal B", () => {
  it("is refused like an unknown task id by tasks/get, tasks/update and tasks/cancel, and stays its owner's", async () => {
    const alice = await as('alice');
    const bob = await as('bob');
    const taskId = createdTaskId(await alice.call('confirm_delete', { filename: 'alice.txt' }));
    await alice.until(taskId, (task) => task.status === 'input_required');

    const unknown = await bob.get('an-id-nobody-was-given');
    expect(unknown.body.error?.code).toBe(-32602);
    for (const reply of [
      await bob.get(taskId),
      await bob.update(taskId, { confirm_delete: accept({ confirm: true }) }),
      await bob.cancel(taskId),
    ]) {
      expect(reply.status).toBe(unknown.status);
      expect(reply.body.error).toEqual(unknown.body.error);
    }

    // Bob's update and cancel did nothing: the task still waits for Alice, who finishes it.
    const waiting = (await alice.get(taskId)).body.result!;
    expect(waiting).toMatchObject({ status: 'input_required', inputRequests: { confirm_delete: expect.any(Object) } });
    await alice.update(taskId, { confirm_delete: accept({ confirm: true }) });
    const done = await alice.until(taskId, (task) => task.status === 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'Deleted alice.txt.' }] });
    const { rows } = await stack.service.pool.query<{ principal: string }>(
      'SELECT principal FROM exchange_tasks WHERE task_id = $1',
      [taskId],
    );
    expect(rows[0]?.principal).toBe(stack.principal('alice'));
  });
});
