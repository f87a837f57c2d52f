/**
 * The budgets on a legacy client's answers: repeats of an answer its workflow has are dropped
 * (no second signal; each counted before the workflow is asked, up to MAX_REPEATED_ANSWERS), and an answer that would take the round's answers past
 * MAX_ROUND_INPUT_BYTES is refused with HTTP 413, its request left open.
 */
import { Client, Connection } from '@temporalio/client';
import { serviceDataConverter } from '../../lib/payload-codec/data-converter';
import { workflowIdFor } from '../../lib/exchange-client/workflow-messages';
import { isRequest, LegacySession, type JsonRpcMessage } from '../support/legacy-client';
import { useTestService } from '../support/test-service';
import { BUDGETS, DEPLOY_ARGS, assistant, legacyCallOf } from './budgets-support';

describe('legacy budgets', () => {
  const service = useTestService(BUDGETS);

  describe('answers', () => {
    async function startDeploy(session: LegacySession) {
      const { id, stream } = await session.request('tools/call', { name: 'deploy_service', arguments: DEPLOY_ARGS });
      const roots = await stream.until((m) => isRequest(m, 'roots/list'), 'roots/list request');
      const sampling = await stream.until(
        (m) => isRequest(m, 'sampling/createMessage'),
        'sampling/createMessage request',
      );
      return { id, stream, rootsId: roots.message.id!, samplingId: sampling.message.id! };
    }

    it('drops the repeats of an answer its workflow has: no second signal, each repeat counted up to the budget', async () => {
      const session = await LegacySession.open(service.url, {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
      });
      const connection = await Connection.connect({ address: service.config.temporal.address });
      try {
        const { rootsId } = await startDeploy(session);
        const roots = { roots: [{ uri: 'file:///src/checkout' }] };
        for (let i = 0; i < 4; i++) expect(await session.respond(rootsId, roots)).toBe(202);
        const { exchange_id: exchangeId } = await legacyCallOf(service, session.sessionId);
        const { rows } = await service.pool.query<{ repeats: number }>(
          'SELECT repeats FROM legacy_open_requests WHERE id = $1',
          [rootsId],
        );
        // Counted before the workflow is asked (a query can replay a whole history), up to the budget.
        expect(rows[0]!.repeats).toBe(Number(BUDGETS.MAX_REPEATED_ANSWERS));
        // The repeats within it asked the workflow, which has the answer once it applied its history.
        const handle = new Client({
          connection,
          dataConverter: serviceDataConverter(service.config.payloadCodec),
        }).workflow.getHandle(workflowIdFor(exchangeId));
        const signals = ((await handle.fetchHistory()).events ?? []).filter(
          (e) => e.workflowExecutionSignaledEventAttributes,
        );
        expect(signals).toHaveLength(1);
      } finally {
        await connection.close();
        await session.close();
      }
    });

    it("refuses with HTTP 413 an answer that would take the round's answers past MAX_ROUND_INPUT_BYTES; the request stays open", async () => {
      const session = await LegacySession.open(service.url, {
        capabilities: { elicitation: {}, sampling: {}, roots: {} },
      });
      try {
        const { stream, rootsId, samplingId } = await startDeploy(session);
        expect(await session.respond(rootsId, { roots: [{ uri: `file:///src/${'r'.repeat(1_200)}` }] })).toBe(202);
        const tooBig = await session.post({ jsonrpc: '2.0', id: samplingId, result: assistant('s'.repeat(1_200)) });
        expect(tooBig.status).toBe(413);
        const body = (await tooBig.json()) as JsonRpcMessage;
        expect(body.error).toMatchObject({ code: -32602, data: { path: 'result', limit: 2048 } });
        const { rows } = await service.pool.query<{ status: string }>(
          'SELECT status FROM legacy_open_requests WHERE id = $1',
          [samplingId],
        );
        expect(rows[0]!.status).toBe('open');
        // A smaller answer is taken and the exchange moves on.
        expect(await session.respond(samplingId, assistant('Adds retries.'))).toBe(202);
        const approval = await stream.until((m) => isRequest(m, 'elicitation/create'), 'the round-2 elicitation');
        expect(approval.message.params).toMatchObject({ message: expect.stringContaining('Adds retries.') });
      } finally {
        await session.close();
      }
    });
  });
});
