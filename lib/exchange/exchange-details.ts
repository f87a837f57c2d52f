/**
 * What an exchange's workflow says about itself in the Temporal UI (its user metadata): the static
 * summary and details the API sets when it starts it, the current details the workflow keeps up to
 * date each round (Markdown), and the summaries of its timers and activities, so the event history
 * reads like the exchange.
 *
 * Pure functions of bounded inputs, free of Node imports: the workflow bundle imports this module.
 * Nothing here is given an answer, an argument's value or a secret; a session is named by its tag.
 * Text that comes from a client or a handler (a target, a client name, an ask's message) is
 * escaped, so it reads as text and never becomes a link, an image or HTML in the UI.
 */
import { clip, MAX_NAME_CHARS, MAX_REQUESTS } from './ask-description';
import { exchangeStatusOf } from './exchange-status';
import { humanDuration, questionWaitLines } from './question-waits';
import type { Addressing } from '@durable-mcp/handlers';
import type { AskDescription, Era, ExchangeOrigin, ExchangeStatus, OriginalRequest } from './types';

/** Temporal's bound on a static summary, in UTF-8 bytes. */
export const MAX_SUMMARY_BYTES = 200;
/** At most this many characters of a target or a client's name or version in a summary or details. */
const MAX_TEXT_CHARS = 100;

type Request = Pick<OriginalRequest, 'method' | 'target'>;

/** Backslash-escapes what would make client or handler text Markdown (links, images, HTML, code, emphasis, table cells). */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*[\]<>|]/g, (c) => `\\${c}`);
}

/** `text` on one line, bounded and escaped. */
const inline = (text: string, max = MAX_TEXT_CHARS) => escapeMarkdown(clip(text, max));

function utf8Bytes(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Cuts `text` to at most `max` UTF-8 bytes, never inside a character or an escape, with an ellipsis when cut. */
function fitBytes(text: string, max: number): string {
  if (utf8Bytes(text) <= max) return text;
  let out = '';
  for (const char of text) {
    if (utf8Bytes(out + char) > max - 3) break; // "…" is 3 bytes
    out += char;
  }
  return `${out.replace(/\\$/, '')}…`;
}

/** The `name` and `version` of a client's `clientInfo`, when it names itself; anything else in it is ignored. */
export function clientOf(clientInfo: unknown): ExchangeOrigin['client'] {
  if (typeof clientInfo !== 'object' || clientInfo === null) return undefined;
  const { name, version } = clientInfo as { name?: unknown; version?: unknown };
  if (typeof name !== 'string' || name.trim() === '') return undefined;
  return typeof version === 'string' && version !== '' ? { name, version } : { name };
}

export const eraLabel = (era: Era): string => (era === 'modern' ? 'modern' : 'legacy era');

/** The client as people name it: `name version`, or undefined when it sent no `clientInfo`. */
export function clientLabel(origin: ExchangeOrigin): string | undefined {
  const { client } = origin;
  if (!client) return undefined;
  return client.version ? `${clip(client.name, MAX_TEXT_CHARS)} ${clip(client.version, 40)}` : clip(client.name, 100);
}

/** The workflow's static summary (one line, at most 200 bytes): method, target, era and client. */
export function exchangeSummary(request: Request, era: Era, origin: ExchangeOrigin = {}): string {
  const client = clientLabel(origin);
  const parts = [`${request.method} ${inline(request.target, 80)}`, eraLabel(era)];
  if (client) parts.push(inline(client, 60));
  return fitBytes(parts.join(' · '), MAX_SUMMARY_BYTES);
}

export interface StaticDetailsInput {
  exchangeId: string;
  era: Era;
  request: Request;
  roundTimeoutMs: number;
  maxRounds: number;
  roundActivity?: 'local' | 'regular';
  /** The version of the handlers that started it (`demo@0.1.0`), when it was recorded. */
  handlerVersion?: string;
  /** Set when the call runs as a task from its start (its id stays out: it is its client's handle on it). */
  task?: { ttlMs: number };
}

/** The workflow's static details (Markdown): what the exchange is and who started it. */
export function exchangeStaticDetails(input: StaticDetailsInput, origin: ExchangeOrigin = {}): string {
  const client = clientLabel(origin);
  const era = origin.protocolVersion
    ? `${eraLabel(input.era)} (${inline(origin.protocolVersion, 40)})`
    : eraLabel(input.era);
  const rounds =
    `each waits at most ${seconds(input.roundTimeoutMs)} for its answers; at most ${input.maxRounds} asks` +
    (input.roundActivity ? `; run as ${input.roundActivity} activities` : '');
  return [
    `**${input.request.method}** ${inline(input.request.target)}`,
    '',
    `- Era: ${era}`,
    `- Client: ${client ? escapeMarkdown(client) : 'not named (no clientInfo)'}`,
    ...(origin.session ? [`- Session: ${inline(origin.session, 40)}`] : []),
    ...(input.handlerVersion ? [`- Handler version: ${inline(input.handlerVersion)}`] : []),
    `- Exchange: ${input.exchangeId}`,
    `- Rounds: ${rounds}`,
    ...(input.task ? [`- Task: ended and forgotten ${seconds(input.task.ttlMs)} after its creation (its TTL)`] : []),
  ].join('\n');
}

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);
const at = (epochMs: number) => new Date(epochMs).toISOString();

/** The summary of the timer that bounds the wait for round `round`'s answers. */
export const deadlineTimerSummary = (round: number): string => `round ${round} deadline`;

/** The summary of the timer a question's reminder or escalation waits on. */
export const questionMilestoneSummary = (type: 'question.reminder' | 'question.escalated', key: string): string =>
  `${type === 'question.reminder' ? 'reminder' : 'escalation'} of ${inline(key)}`;

/** The summary of round `round`'s activity (the handler's run and the record of its outcome). */
export const roundActivitySummary = (round: number, target: string): string => `round ${round}: ${inline(target)}`;

/** The summary of the activity that records an ending the workflow decided (an expiry, a cancel, a failed round). */
export const endingActivitySummary = (errorCode: number): string =>
  `record ending: ${exchangeStatusOf({ kind: 'error', errorCode })}`;

export interface WaitingView {
  request: Request;
  /** The round whose answers are awaited (its ask's round). */
  round: number;
  asks: number;
  maxRounds: number;
  /** How long this ask waits: the round timeout, or its addressed questions' own wait (`waitMs`). */
  roundTimeoutMs: number;
  /** The ask's questions addressed to someone other than the caller: whom each waits on. */
  questions?: Record<string, Addressing>;
  /** When the wait began (epoch ms). */
  waitingSince: number;
  deadlineAt?: number;
  /** The ask, when its round described it; exchanges that predate descriptions have only its keys. */
  ask?: AskDescription;
  askKeys?: string[];
  /** Keys answered so far (a legacy client answers each request on its own). */
  answeredKeys?: string[];
  /** Who answered the ask's questions so far (addressed to someone else): key, who, through what, when. */
  questionAnswers?: Array<{ key: string; by: string; via: string; action: string; at: number }>;
}

/** Whom each kind of request asks, for a request with no message of its own. */
const KIND_OF: Record<string, string> = {
  'elicitation/create': 'asks a person',
  'sampling/createMessage': "asks the client's model",
  'roots/list': "asks for the client's roots",
};

/** One line of an ask's request: its key and kind, and what it asks of whom. */
function requestLine(r: AskDescription['requests'][0]): string {
  const kind = r.method === 'elicitation/create' && r.mode ? `${r.method}, ${r.mode}` : r.method;
  const head = `- **${escapeMarkdown(r.key)}** (${escapeMarkdown(kind)})`;
  const parts = [r.message !== undefined ? escapeMarkdown(r.message) : KIND_OF[r.method]];
  if (r.fields?.length)
    parts.push(`fields: ${r.fields.map(escapeMarkdown).join(', ')}${r.moreFields ? `, and ${r.moreFields} more` : ''}`);
  const said = parts.filter((part) => part !== undefined);
  return said.length ? `${head}: ${said.join(' · ')}` : head;
}

/** Current details while the exchange waits for the answers to an ask. */
export function waitingDetails(view: WaitingView): string {
  const requests =
    view.ask?.requests ??
    (view.askKeys ?? [])
      .slice(0, MAX_REQUESTS)
      .map((key) => ({ key: clip(key, MAX_NAME_CHARS), method: 'unknown' }) as AskDescription['requests'][0]);
  const addressed = view.questions !== undefined && Object.keys(view.questions).length > 0;
  const wait = addressed
    ? `the questions' own wait: ${humanDuration(view.roundTimeoutMs)}`
    : `the round timeout: ${humanDuration(view.roundTimeoutMs)}`;
  const lines = [
    `**Waiting for the answers to round ${view.round}** of ${view.request.method} ${inline(view.request.target)}`,
    '',
    ...requests.map(requestLine),
    ...(view.ask?.moreRequests ? [`- and ${view.ask.moreRequests} more requests`] : []),
    ...(addressed ? ['', ...questionWaitLines(view.questions!, view.deadlineAt, view.roundTimeoutMs)] : []),
    '',
    `- Waiting since ${at(view.waitingSince)}`,
    // An addressed ask waits its questions' own time (hours, say), not the round timeout.
    view.deadlineAt !== undefined
      ? `- Deadline ${at(view.deadlineAt)} (${wait})`
      : `- Deadline ${humanDuration(view.roundTimeoutMs)} after the ask`,
    `- Ask ${view.asks} of at most ${view.maxRounds}`,
  ];
  if (view.answeredKeys?.length) {
    const keys = view.answeredKeys.slice(0, MAX_REQUESTS).map((key) => inline(key, MAX_NAME_CHARS));
    lines.push(`- Answered so far: ${keys.join(', ')}${view.answeredKeys.length > MAX_REQUESTS ? ', …' : ''}`);
  }
  for (const answer of (view.questionAnswers ?? []).slice(0, MAX_REQUESTS))
    lines.push(
      `- ${inline(answer.key, MAX_NAME_CHARS)}: ${answer.action} by ${inline(answer.by, MAX_NAME_CHARS)} via ${answer.via} at ${at(answer.at)}`,
    );
  return lines.join('\n');
}

/** Current details while a round's handler runs: the first round, or one whose answers arrived at `since`. */
export function runningDetails(request: Request, round: number, since: number): string {
  const why = round === 1 ? 'started' : `the answers to round ${round - 1} arrived`;
  return `**Running round ${round}** of ${request.method} ${inline(request.target)}: ${why} at ${at(since)}`;
}

export interface EndedView {
  request: Request;
  status: ExchangeStatus;
  round: number;
  asks: number;
  maxRounds: number;
  roundTimeoutMs: number;
  errorCode?: number;
  /** Who cancelled, for an ending the workflow recorded as cancelled. */
  cancelledBy?: 'client' | 'operator';
  at: number;
}

function howItEnded(view: EndedView): string {
  const code = view.errorCode !== undefined ? ` (error ${view.errorCode})` : '';
  switch (view.status) {
    case 'completed':
      return 'the handler returned its result';
    case 'expired':
      return `no answers arrived within ${humanDuration(view.roundTimeoutMs)}${code}`;
    case 'capped':
      return `the handler asked for input more than ${view.maxRounds} times${code}`;
    case 'cancelled':
      return `cancelled by ${view.cancelledBy === 'operator' ? 'an operator' : 'the client'}${code}`;
    case 'terminated':
      return `ended by Temporal${code}`;
    default:
      return `failed${code}`;
  }
}

/** Current details once the exchange has ended: how, when, after how many rounds. */
export function endedDetails(view: EndedView): string {
  return [
    `**Ended: ${view.status}** in round ${view.round} of ${view.request.method} ${inline(view.request.target)}`,
    '',
    `- ${howItEnded(view)}`,
    `- at ${at(view.at)}, after ${view.asks} ${view.asks === 1 ? 'ask' : 'asks'}`,
  ].join('\n');
}
