/**
 * The soak's 2025-11-25 sessions, over the tests' bare legacy client (test/support/legacy-client.ts)
 * as legacy-wizard.ts drives the onboarding wizard: `initialize`, one `tools/call` whose stream
 * carries each round's real `elicitation/create` request, each answered by the client's response
 * POSTed on its own, then the call's response on the stream, then DELETE. When the stream breaks
 * (its API was killed) or stays silent for READ_MS, the client sends its call again under the same
 * request id to an API that is up, which takes the call's delivery over and replays its stream, as
 * stream-lease.fault.test.ts does; requests it already answered are skipped. A 202 to a response
 * is its acknowledgement. Its exchange is known to the client by its session (Postgres maps it).
 */
import {
  isRequest,
  isResponseTo,
  LegacySession,
  type JsonRpcMessage,
  type MessageStream,
} from '../test/support/legacy-client';
import { stepAnswers, welcomeText, WIZARD } from '../test/faults/support/wizard-exchange';
import { onLiveApi, think, why, type SoakContext, type SoakTrack } from './soak-context';

/** How long a call stream may stay silent before the client re-attaches (a busy round, a worker restarting). */
const READ_MS = 30_000;

export async function runLegacy(ctx: SoakContext, n: number, track: SoakTrack): Promise<void> {
  const name = `l${n}`;
  const headers = () => ctx.auth.callerHeaders();
  const session = await onLiveApi(
    ctx,
    'initialize',
    async (url) => LegacySession.open(url, { capabilities: { elicitation: {} }, headers: await headers() }),
    n % 2,
  );
  ctx.ledger.sessionsOpened.add(session.sessionId);
  const ref = (track.ref = `legacy:${session.sessionId}`);
  const callId = session.newId();
  let stream: MessageStream | undefined;

  /** The next message that `wanted` matches, re-attaching to the call whenever its stream breaks or goes quiet. */
  const read = async (wanted: (m: JsonRpcMessage) => boolean, what: string): Promise<JsonRpcMessage> => {
    const deadline = Date.now() + ctx.patienceMs;
    for (;;) {
      stream ??= (
        await onLiveApi(ctx, 'the call', async (url) =>
          session.request('tools/call', WIZARD, { id: callId, url, headers: await headers() }),
        )
      ).stream;
      try {
        return (await stream.until(wanted, what, Math.min(READ_MS, Math.max(deadline - Date.now(), 1)))).message;
      } catch (error) {
        stream.close();
        stream = undefined;
        ctx.reattaches += 1;
        if (Date.now() > deadline) throw new Error(`${what}: ${why(error)}`);
      }
    }
  };

  try {
    const answered = new Set<string>();
    for (const step of [1, 2, 3] as const) {
      const request = await read(
        (m) => isRequest(m, 'elicitation/create') && !answered.has(String(m.id)),
        `step ${step}'s elicitation/create`,
      );
      const [answer] = Object.values(stepAnswers(name, step)) as Array<Record<string, unknown>>;
      await think(ctx);
      ctx.ledger.sending(ref, step);
      const status = await onLiveApi(ctx, `the response to step ${step}`, async (url) =>
        session.respond(request.id!, answer!, { url, headers: await headers() }),
      );
      if (status !== 202)
        return ctx.ledger.end('legacy', 'error reply', `HTTP ${status} to step ${step}'s response`, ref);
      ctx.ledger.accept(ref, step);
      answered.add(String(request.id));
    }
    const final = await read((m) => isResponseTo(m, callId), 'the result of the call');
    if (final.error) return ctx.ledger.end('legacy', 'error reply', `${final.error.code} ${final.error.message}`, ref);
    const text = (final.result?.content as Array<{ text?: string }> | undefined)?.[0]?.text;
    if (text === welcomeText(name)) return ctx.ledger.end('legacy', 'completed');
    ctx.ledger.end('legacy', 'unexpected result', JSON.stringify(final.result).slice(0, 200), ref);
  } finally {
    stream?.close();
    const ended = await onLiveApi(ctx, 'DELETE of the session', async (url) =>
      session.terminate({ url, headers: await headers() }),
    ).catch(() => 0);
    if (ended >= 200 && ended < 300) ctx.ledger.sessionsClosed.add(session.sessionId);
  }
}
