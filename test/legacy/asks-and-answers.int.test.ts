/**
 * What a legacy exchange sends and takes, on one API replica: an ask the client never declared
 * the capability for is refused (-32021) before any request goes out; a duplicate response, another
 * answer to an answered request and unknown ids change nothing (202); the client's
 * notifications/cancelled withdraws the open request and ends the originating call.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { EXCHANGE_CANCELLED } from '../../lib/protocol/exchange-errors';
import { MISSING_REQUIRED_CLIENT_CAPABILITY } from '../../lib/protocol/json-rpc-codes';
import { isNotification, isRequest, isResponseTo, LegacySession } from '../support/legacy-client';
import { useTestService } from '../support/test-service';
import {
  CALL_TIMEOUT,
  DEPLOY_ARGS,
  connectOfficialClient,
  rejectionOf,
  requiredCapabilityNames,
} from './official-client';
import {
  accept,
  cancellationsIn,
  eventually,
  exchangeOf,
  expectText,
  roundsOf,
  sleep,
  startGreet,
} from './bare-session';

describe('legacy clients on one API replica', () => {
  const service = useTestService();

  describe('asks the client never declared', () => {
    it('refuses deploy_service to a client with neither sampling nor roots: -32021, and nothing is sent', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        elicit: () => ({ action: 'accept', content: { approve: true, ticket: 'never' } }),
      });
      try {
        const error = await rejectionOf(
          client.callTool({ name: 'deploy_service', arguments: DEPLOY_ARGS }, undefined, CALL_TIMEOUT),
        );
        // An McpError (a JSON-RPC error in a 200 reply), not a transport error from an HTTP 4xx.
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(MISSING_REQUIRED_CLIENT_CAPABILITY);
        expect(requiredCapabilityNames((error as McpError).data)).toEqual(['roots', 'sampling']);
        expect(seen.elicit).toEqual([]);
        expect(seen.unexpected).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('names only the missing capability when roots is declared but sampling is not', async () => {
      const { client, seen } = await connectOfficialClient(service.url, 'streamable-http', {
        roots: [{ uri: 'file:///src/checkout' }],
        elicit: () => ({ action: 'accept', content: { approve: true, ticket: 'never' } }),
      });
      try {
        const error = await rejectionOf(
          client.callTool({ name: 'deploy_service', arguments: DEPLOY_ARGS }, undefined, CALL_TIMEOUT),
        );
        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(MISSING_REQUIRED_CLIENT_CAPABILITY);
        expect(requiredCapabilityNames((error as McpError).data)).toEqual(['sampling']);
        expect([seen.roots, seen.elicit.length, seen.unexpected.length]).toEqual([0, 0, 0]);
      } finally {
        await client.close();
      }
    });

    it('answers the call with the error alone: no server-to-client request precedes it', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { id, stream } = await session.request('tools/call', { name: 'deploy_service', arguments: DEPLOY_ARGS });
        expect(stream.status).toBe(200);
        const messages = (await stream.drain()).map((m) => m.message);
        expect(messages.filter((m) => isRequest(m))).toEqual([]);
        const responses = messages.filter((m) => isResponseTo(m, id));
        expect(responses).toHaveLength(1);
        expect(responses[0]!.error).toMatchObject({ code: MISSING_REQUIRED_CLIENT_CAPABILITY });
        expect(requiredCapabilityNames(responses[0]!.error!.data)).toEqual(['roots', 'sampling']);
      } finally {
        await session.close();
      }
    });
  });

  describe('responses the exchange must not take', () => {
    it('drops a duplicate response, a different answer to an answered request and unknown ids (202, nothing changes)', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, askId } = await startGreet(session);
        expect(typeof askId).toBe('string');
        const answer = accept({ name: 'Lin' });
        expect(await session.respond(askId, answer)).toBe(202);
        expect(await session.respond(askId, answer)).toBe(202);
        expect(await session.respond(askId, accept({ name: 'Mallory' }))).toBe(202);
        expect(await session.respond(`${String(askId)}-unknown`, answer)).toBe(202);
        expect(await session.respond(987_654_321, answer)).toBe(202);
        expect(await session.respondError('never-issued', { code: -32601, message: 'Method not found' })).toBe(202);

        const final = await stream.until((m) => isResponseTo(m, callId), 'the result of greet');
        expectText(final.message, 'Hello, Lin!');
        // After the exchange ended, the same response once more.
        expect(await session.respond(askId, answer)).toBe(202);
        await stream.settle(1_000);
        expect(stream.messages.filter((m) => isResponseTo(m.message, callId))).toHaveLength(1);
        expect(stream.messages.filter((m) => isRequest(m.message))).toHaveLength(1);
      } finally {
        await session.close();
      }
      await sleep(1_000); // let a stray signal land, if one was sent
      const exchange = await exchangeOf(service, session);
      expect(exchange.status).toBe('completed');
      const rounds = await roundsOf(service, exchange.id);
      expect(rounds.map((r) => [r.round, r.outcome_kind])).toEqual([
        [1, 'ask'],
        [2, 'complete'],
      ]);
      expect(rounds[1]!.answers).toMatchObject({ name: { action: 'accept', content: { name: 'Lin' } } });
    });
  });

  describe('cancellation by the client', () => {
    it('withdraws the open elicitation with one notifications/cancelled and ends the originating call', async () => {
      const session = await LegacySession.open(service.url, { capabilities: { elicitation: {} } });
      try {
        const { callId, stream, askId } = await startGreet(session);
        expect(
          await session.notify('notifications/cancelled', { requestId: callId, reason: 'The user closed the dialog' }),
        ).toBe(202);

        await stream.until(
          (m) => isNotification(m, 'notifications/cancelled'),
          'notifications/cancelled for the elicitation',
        );
        await stream.settle(3_000);
        expect(cancellationsIn(stream)).toEqual([expect.objectContaining({ requestId: askId })]);
        // The originating request ends: with its error, or (as a cancelled request may) with no response at all.
        const responses = stream.messages.filter((m) => isResponseTo(m.message, callId)).map((m) => m.message);
        expect(responses.length <= 1).toBe(true);
        if (responses[0]) expect(responses[0].error).toMatchObject({ code: EXCHANGE_CANCELLED });
        else expect(stream.ended).toBe(true);

        const exchange = await eventually(
          () => exchangeOf(service, session),
          (e) => e.status === 'cancelled',
        );
        expect(exchange.status).toBe('cancelled');
        // An answer to the withdrawn request changes nothing.
        expect(await session.respond(askId, accept({ name: 'Too late' }))).toBe(202);
        await sleep(1_000);
        expect((await exchangeOf(service, session)).status).toBe('cancelled');
        expect((await roundsOf(service, exchange.id)).map((r) => r.outcome_kind)).not.toContain('complete');
      } finally {
        await session.close();
      }
    });
  });
});
