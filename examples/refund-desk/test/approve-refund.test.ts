/**
 * The refund desk's rounds, driven in process by @durable-mcp/testing under the service's rules:
 * no Temporal, no Postgres, no network.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MISSING_REQUIRED_CLIENT_CAPABILITY, driveTool } from '@durable-mcp/testing';
import { handlers } from '../src/tools';

const elicitation = { capabilities: { elicitation: {} } };
const approve = (approver: string) => ({ action: 'accept', content: { approve: true, approver } });

describe('approve_refund', () => {
  it('refunds a small amount once the desk approves', async () => {
    const asked = await driveTool(handlers, 'approve_refund', { order: 'A-1', amount: 40 }, elicitation);
    assert.equal(asked.kind, 'ask');
    assert.equal(asked.ask?.inputRequests.desk?.method, 'elicitation/create');

    const done = await asked.answer({ desk: approve('Ada') });
    assert.equal(done.kind, 'complete');
    assert.deepEqual(done.result?.content, [{ type: 'text', text: 'Refunded 40 on A-1, approved by Ada.' }]);
  });

  it('asks a manager above the desk limit, remembering who approved first', async () => {
    const asked = await driveTool(handlers, 'approve_refund', { order: 'B-7', amount: 250 }, elicitation);
    const manager = await asked.answer({ desk: approve('Ada') });
    assert.equal(manager.kind, 'ask');
    const question = manager.ask?.inputRequests.manager?.params as { message?: string } | undefined;
    assert.match(String(question?.message), /Ada approved a refund of 250/);
    // What the client holds is the service's sealed token, not the handler's state.
    assert.equal(manager.ask?.handlerState, JSON.stringify({ deskApprover: 'Ada' }));
    assert.doesNotMatch(manager.ask!.requestState, /Ada/);

    const done = await manager.answer({ manager: approve('Grace') });
    assert.deepEqual(done.result?.content, [{ type: 'text', text: 'Refunded 250 on B-7, approved by Ada and Grace.' }]);
  });

  it('stops at the first no', async () => {
    const asked = await driveTool(handlers, 'approve_refund', { order: 'C-2', amount: 500 }, elicitation);
    const done = await asked.answer({ desk: { action: 'decline' } });
    assert.deepEqual(done.result?.content, [{ type: 'text', text: 'Refund of 500 on C-2 declined.' }]);
  });

  it('refuses arguments its schema refuses, before any round runs', async () => {
    const refused = await driveTool(handlers, 'approve_refund', { order: 'nope', amount: -1 }, elicitation);
    assert.equal(refused.result?.isError, true);
  });

  it('cannot ask a client that declared no elicitation', async () => {
    const refused = await driveTool(handlers, 'approve_refund', { order: 'A-1', amount: 40 });
    assert.equal(refused.error?.code, MISSING_REQUIRED_CLIENT_CAPABILITY);
  });
});
