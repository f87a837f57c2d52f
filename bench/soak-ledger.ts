/**
 * What the soak's clients saw: exchanges started and how each ended for its client, every answer
 * sent and every one the service acknowledged (a non-error reply to a 2026-07-28 answer leg or to
 * `tasks/update`, a 202 to a 2025-11-25 response, a 200 of the answer API), and why a client left
 * an exchange it could not finish. A client knows an exchange by a ref: `exchange:<id>` when its
 * id is in the client's hands (a 2026-07-28 requestState, a question), `task:<id>` or
 * `legacy:<session>` when only Postgres maps it to its exchange (resolved at the end).
 * `reconcile` is the accepted-versus-applied check; it and `resolveKey` are pure.
 */
import type { SoakKind } from './soak-options';

export type ClientEnd = 'completed' | 'unexpected result' | 'error reply' | 'gave up';
export const CLIENT_ENDS: readonly ClientEnd[] = ['completed', 'unexpected result', 'error reply', 'gave up'];

const keyOf = (ref: string, round: number) => `${ref}#${round}`;

export class SoakLedger {
  readonly started = new Map<SoakKind, number>();
  readonly ends = new Map<string, number>();
  /** Answers sent, by `<ref>#<round asked>`; `accepted` is those the service acknowledged. */
  readonly sent = new Set<string>();
  readonly accepted = new Set<string>();
  /** Why the client left the exchange behind `ref` unfinished (its last error). */
  readonly notes = new Map<string, string>();
  readonly sessionsOpened = new Set<string>();
  readonly sessionsClosed = new Set<string>();
  /** The first few problems of each kind, for the report. */
  readonly problems: string[] = [];
  private count = 0;

  /** A new exchange of `kind`; its number names it (an order, a greeting) so outcomes match clients. */
  start(kind: SoakKind): number {
    this.started.set(kind, (this.started.get(kind) ?? 0) + 1);
    return ++this.count;
  }

  end(kind: SoakKind, end: ClientEnd, detail?: string, ref?: string): void {
    const key = `${kind}\t${end}`;
    this.ends.set(key, (this.ends.get(key) ?? 0) + 1);
    if (end !== 'completed' && detail) {
      if (ref) this.notes.set(ref, `${end}: ${detail}`);
      if (this.problems.length < 40) this.problems.push(`${kind} ${ref ?? '(no handle yet)'}: ${end}: ${detail}`);
    }
  }

  ended(kind: SoakKind, end: ClientEnd): number {
    return this.ends.get(`${kind}\t${end}`) ?? 0;
  }

  sending(ref: string, round: number): void {
    this.sent.add(keyOf(ref, round));
  }

  accept(ref: string, round: number): void {
    this.sent.add(keyOf(ref, round));
    this.accepted.add(keyOf(ref, round));
  }
}

/** `<ref>#<round>` with its ref made `<exchange id>`: read from `exchange:<id>`, or as `refs` maps it. */
export function resolveKey(key: string, refs: ReadonlyMap<string, string>): string {
  const at = key.lastIndexOf('#');
  const ref = key.slice(0, at);
  const id = ref.startsWith('exchange:') ? ref.slice('exchange:'.length) : (refs.get(ref) ?? ref);
  return `${id}${key.slice(at)}`;
}

export interface Reconciliation {
  /** Distinct (exchange, round) answers the service acknowledged to a client. */
  accepted: number;
  /** Rounds that consumed answers, less those whose answers a client sent but never saw acknowledged. */
  applied: number;
  /** Sent, never acknowledged to the client (it gave up, or every reply was lost with its API). */
  inDoubt: number;
  /** Of those, the ones a round consumed anyway. */
  inDoubtApplied: number;
  /** Acknowledged, never consumed by a round: an answer the service lost. */
  lost: string[];
  /** Consumed by a round, never sent by a client: an answer the service made up or doubled. */
  unexplained: string[];
  equal: boolean;
}

/** Accepted against applied, all keys `<exchange id>#<round asked>` (a round's answers are applied by the round after). */
export function reconcile(input: {
  accepted: Iterable<string>;
  sent: Iterable<string>;
  applied: Iterable<string>;
}): Reconciliation {
  const accepted = new Set(input.accepted);
  const sent = new Set([...input.sent, ...accepted]);
  const applied = new Set(input.applied);
  const doubt = [...sent].filter((key) => !accepted.has(key));
  const inDoubtApplied = doubt.filter((key) => applied.has(key)).length;
  const lost = [...accepted].filter((key) => !applied.has(key)).sort();
  const unexplained = [...applied].filter((key) => !sent.has(key)).sort();
  return {
    accepted: accepted.size,
    applied: applied.size - inDoubtApplied,
    inDoubt: doubt.length,
    inDoubtApplied,
    lost,
    unexplained,
    equal: lost.length === 0 && unexplained.length === 0,
  };
}

/** Why an exchange still runs after the drain: what its client last said of it, and where the service left it. */
export function whyStillRunning(exchange: {
  /** The client's note on it (soak-ledger `notes`), if it left it. */
  note?: string;
  /** Whether a client ever held it (a first leg's reply lost with its API leaves one nobody holds). */
  known: boolean;
  /** Whether its client was still following it when the drain ended. */
  inFlight: boolean;
  rounds: number;
  lastOutcome: string | null;
  waitingQuestions: number;
}): string {
  const client = exchange.note
    ? `its client ${exchange.note}`
    : exchange.inFlight
      ? 'its client was still following it when the drain ended'
      : exchange.known
        ? 'its client finished without its result'
        : 'no client holds it (a first call whose reply was lost, sent again, started another)';
  const service =
    exchange.rounds === 0
      ? 'no round recorded'
      : `round ${exchange.rounds} recorded (${exchange.lastOutcome ?? '?'})${exchange.waitingQuestions ? ', a question waiting' : ''}`;
  return `${client}; ${service}`;
}
