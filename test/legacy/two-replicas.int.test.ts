/**
 * Legacy clients across two API replicas, sharing one worker: a session opened on one is served
 * by the other, a response POSTed to either (or to a separate API process) reaches the call whose
 * stream the other holds, a dropped stream resumes on the other, and a call finishes after the API
 * process holding its stream stopped or was killed. A JSON-RPC error answer is an answer the handler sees.
 */
import { isResponseTo, LegacySession } from '../support/legacy-client';
import { startApiProcess } from '../support/service-processes';
import { startTestService, TEST_KEY_RINGS, useReplicaPair } from '../support/test-service';
import { accept, exchangeOf, expectText, roundsOf, sleep, startGreet } from './bare-session';

describe('legacy clients across two API replicas', () => {
  const [replicaA, replicaB] = useReplicaPair();

  it('serves a session created on replica A from replica B', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      expect((await session.call('ping', {}, { url: replicaB.url })).result).toEqual({});
    } finally {
      await session.close();
    }
  });

  it('completes the call whose stream A holds with a response POSTed to B', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      expect(typeof askId).toBe('string');
      expect(askId).not.toBe(callId);
      expect(await session.respond(askId, accept({ name: 'Grace' }), { url: replicaB.url })).toBe(202);
      const final = await stream.until((m) => isResponseTo(m, callId), 'the result of greet on replica A');
      expectText(final.message, 'Hello, Grace!');
      // A legacy client never sees the modern era's retry artifacts.
      expect(final.message.result).not.toHaveProperty('requestState');
      expect(final.message.result).not.toHaveProperty('inputRequests');
    } finally {
      await session.close();
    }
  });

  it('resumes on replica B, from Last-Event-ID, a call stream dropped on replica A', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId, askEventId } = await startGreet(session);
      expect(askEventId).toEqual(expect.any(String));
      stream.close();
      await sleep(300);
      const resumed = await session.listen({ url: replicaB.url, lastEventId: askEventId });
      expect(resumed.status).toBe(200);
      expect(await session.respond(askId, accept({ name: 'Hopper' }), { url: replicaB.url })).toBe(202);
      const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet on replica B');
      expectText(final.message, 'Hello, Hopper!');
    } finally {
      await session.close();
    }
  });
  it('lets the client finish after the API holding its stream stopped and a new API process started', async () => {
    const queue = replicaA.config.temporal.taskQueue;
    const doomed = await startTestService({ TEMPORAL_TASK_QUEUE: queue });
    await doomed.stopWorker(); // replica A's worker keeps running the exchange
    const session = await LegacySession.open(doomed.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId, askEventId } = await startGreet(session);
      stream.close();
      await doomed.close(); // the API process that held the stream is gone
      const restarted = await startTestService({ TEMPORAL_TASK_QUEUE: queue });
      try {
        await restarted.stopWorker();
        const resumed = await session.listen({ url: restarted.url, lastEventId: askEventId });
        expect(resumed.status).toBe(200);
        expect(await session.respond(askId, accept({ name: 'Turing' }), { url: restarted.url })).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result of greet after the restart');
        expectText(final.message, 'Hello, Turing!');
      } finally {
        await restarted.close();
      }
    } finally {
      await session.close().catch(() => undefined);
    }
  });
  it('takes a JSON-RPC error answer as an answer: recorded raw, and the handler decides', async () => {
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      const error = { code: -32601, message: 'Method not found' };
      expect(await session.respondError(askId, error, { url: replicaB.url })).toBe(202);
      const final = await stream.until((m) => isResponseTo(m, callId), 'the result after an error answer');
      expectText(final.message, 'Hello, whoever you are.');
      const rounds = await roundsOf(replicaA, (await exchangeOf(replicaA, session)).id);
      expect(rounds[1]!.answers).toEqual({ name: { error } });
    } finally {
      await session.close();
    }
  });
  it('completes the call whose stream A holds with a response POSTed to a separate API process', async () => {
    const other = await startApiProcess({
      DATABASE_URL: replicaA.config.database.url,
      TEMPORAL_ADDRESS: replicaA.config.temporal.address,
      TEMPORAL_TASK_QUEUE: replicaA.config.temporal.taskQueue,
      ...TEST_KEY_RINGS,
    });
    const session = await LegacySession.open(replicaA.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId } = await startGreet(session);
      expect(await session.respond(askId, accept({ name: 'Hamilton' }), { url: other.url })).toBe(202);
      const final = await stream.until((m) => isResponseTo(m, callId), 'the result of greet on replica A');
      expectText(final.message, 'Hello, Hamilton!');
    } finally {
      await session.close();
      await other.kill();
    }
  });

  it('finishes a call after the API process holding its stream is killed and another is started', async () => {
    const env = {
      DATABASE_URL: replicaA.config.database.url,
      TEMPORAL_ADDRESS: replicaA.config.temporal.address,
      TEMPORAL_TASK_QUEUE: replicaA.config.temporal.taskQueue,
      ...TEST_KEY_RINGS,
    };
    const doomed = await startApiProcess(env);
    const session = await LegacySession.open(doomed.url, { capabilities: { elicitation: {} } });
    try {
      const { callId, stream, askId, askEventId } = await startGreet(session);
      await doomed.kill('SIGKILL'); // no goodbye: the process and its stream are simply gone
      stream.close();
      const restarted = await startApiProcess(env);
      try {
        const resumed = await session.listen({ url: restarted.url, lastEventId: askEventId });
        expect(resumed.status).toBe(200);
        expect(await session.respond(askId, accept({ name: 'Lovelace' }), { url: restarted.url })).toBe(202);
        const final = await resumed.until((m) => isResponseTo(m, callId), 'the result from the restarted process');
        expectText(final.message, 'Hello, Lovelace!');
      } finally {
        await restarted.kill();
      }
    } finally {
      await session.close().catch(() => undefined);
    }
  });
});
