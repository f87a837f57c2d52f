/**
 * The moments of an exchange's questions, announced as webhooks (lib/webhooks) when the API that
 * started it sends them (`ExchangeInput.questionEvents`): waiting when the ask is folded in, the
 * reminder and the escalation at their times, and one ending each (answered, expired, cancelled).
 * Each is an abandoned child workflow that retries on its own (start-webhook-delivery.ts), so a
 * receiver that is down never delays or breaks the exchange; the starts are not awaited where
 * they happen, only before the workflow closes (`settled`), so Temporal records every one.
 */
import { log } from '@temporalio/workflow';
import { escalatesAt, questionIdOf } from '../lib/questions/addressing';
import { questionPageUrl } from '../lib/questions/question-path';
import type { ExchangeInput, RoundSummary } from '../lib/exchange/types';
import type { QuestionEventType } from '../lib/webhooks/question-event';
import { questionEvent } from '../lib/webhooks/question-event';
import type { ExchangeState } from '../lib/exchange-rules/exchange-state';
import { startWebhookDelivery } from './start-webhook-delivery';

/** A moment while a question waits: its reminder or its escalation. */
export interface QuestionMilestone {
  at: number;
  key: string;
  type: 'question.reminder' | 'question.escalated';
}

export function createQuestionEvents(input: ExchangeInput, state: ExchangeState) {
  const starts: Promise<void>[] = [];
  const sent = new Set<string>();
  let messages: Record<string, string> = {};

  function announce(type: QuestionEventType, key: string): void {
    const questions = state.questions;
    if (!input.questionEvents || !questions) return;
    const id = questionIdOf(input.exchangeId, questions.round, key, Object.keys(questions.addressing));
    if (sent.has(`${id}.${type}`)) return;
    sent.add(`${id}.${type}`);
    const view = {
      id,
      exchangeId: input.exchangeId,
      round: questions.round,
      key,
      method: input.request.method,
      target: input.request.target,
      message: messages[key] ?? '',
      addressing: questions.addressing[key]!,
      deadlineAt: state.deadlineAt ?? Date.now(),
      answers: (questions.taken[key] ?? []).map(({ answer }) => ({
        by: answer.by,
        at: answer.sentAt,
        via: answer.via,
        action: answer.response.action,
      })),
    };
    const event = questionEvent(type, view, {
      url: questionPageUrl(input.questionEvents.pageBase, id),
      occurredAt: Date.now(),
    });
    starts.push(
      startWebhookDelivery(event).catch((error: unknown) =>
        log.warn('question webhook not started', { exchangeId: input.exchangeId, type, error: String(error) }),
      ),
    );
  }

  const keys = () => Object.keys(state.questions?.addressing ?? {});

  return {
    /** The ask of `summary` was folded in: its questions wait. Returns their reminders and escalations, in time order. */
    asked(summary: RoundSummary): QuestionMilestone[] {
      if (!summary.questions || !state.questions) return [];
      messages = Object.fromEntries((summary.ask?.requests ?? []).map((r) => [r.key, r.message ?? '']));
      for (const key of keys()) announce('question.waiting', key);
      const askedAt = state.questions.askedAt;
      return Object.entries(summary.questions)
        .flatMap(([key, addressing]): QuestionMilestone[] => {
          const escalation = escalatesAt(addressing, askedAt);
          return [
            ...(addressing.remindAfterMs !== undefined
              ? [{ at: askedAt + addressing.remindAfterMs, key, type: 'question.reminder' as const }]
              : []),
            ...(escalation !== undefined ? [{ at: escalation, key, type: 'question.escalated' as const }] : []),
          ];
        })
        .sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
    },
    /** A reminder or escalation is due: announced unless its question was decided meanwhile. */
    due(milestone: QuestionMilestone): void {
      if (state.partial?.responses && Object.hasOwn(state.partial.responses, milestone.key)) return;
      announce(milestone.type, milestone.key);
    },
    /** The questions' wait ended so: each is announced once as answered, expired or cancelled. */
    ended(type: 'question.answered' | 'question.expired' | 'question.cancelled'): void {
      for (const key of keys()) announce(type, key);
    },
    /** Every delivery started so far is recorded by Temporal. */
    settled: () => Promise.all(starts).then(() => undefined),
  };
}
