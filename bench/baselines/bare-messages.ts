/**
 * What the bare-Temporal baseline's workflow, activity and HTTP side share: the workflow input,
 * the answers signal and the round activity's input and output. No Node imports (the workflow
 * bundle takes this file).
 */
import { defineSignal } from '@temporalio/workflow';
import type { BenchTool, Known } from './tools';

export interface BareInput {
  exchangeId: string;
  tool: BenchTool;
  /** Run each round as a local activity (in the workflow task) instead of a regular one. */
  local: boolean;
  roundTimeoutMs: number;
}

export interface BareAnswers {
  /** The round these answers start (the ask they answer was round - 1's). */
  round: number;
  answers: Record<string, unknown>;
}

export const answersSignal = defineSignal<[BareAnswers]>('answers');

export interface BareRoundInput {
  exchangeId: string;
  tool: BenchTool;
  round: number;
  answers?: Record<string, unknown>;
  /** What the previous rounds learnt (the tool's state between rounds). */
  known: Known;
}

export interface BareRoundOutput {
  kind: 'ask' | 'result';
  known: Known;
}

export interface BareActivities {
  runRound(input: BareRoundInput): Promise<BareRoundOutput>;
}
