/**
 * The deployment approval (a demo tool whose rounds run as regular activities: roots and a change
 * summary at round 1, a person's approval at round 2, the rollout at round 3) as a 2026-07-28
 * client drives it. The approval's ticket is the client's own answer, so an outcome names its client.
 */
import { accept } from '../../support/raw-mcp';
import type { ApiChoice, Ask, ToolCall } from './modern-exchange';

export const DEPLOY: ToolCall = {
  name: 'deploy_service',
  arguments: { service: 'checkout', version: '2.1.0', environment: 'production' },
};

/** Its asks need the client's roots and its model besides a person. */
export const deployApis = (urls: () => string[]): ApiChoice => ({
  urls,
  capabilities: { elicitation: {}, roots: {}, sampling: {} },
});

export const DEPLOY_ROUNDS = [
  [1, 'ask'],
  [2, 'ask'],
  [3, 'complete'],
] as const;

export const contextAnswers = {
  roots: { roots: [{ uri: 'file:///src/checkout', name: 'checkout' }] },
  summary: {
    role: 'assistant',
    content: { type: 'text', text: 'Adds retries to payment capture.' },
    model: 'fault-model',
    stopReason: 'endTurn',
  },
};

export const deployParams = (ask: Ask, answers: Record<string, unknown>) => ({
  ...DEPLOY,
  inputResponses: answers,
  requestState: ask.requestState,
});

export const approvalOf = (ticket: string) => ({ approval: accept({ approve: true, ticket }) });

export const approvedText = (ticket: string) => `Approved: checkout@2.1.0 to production (ticket ${ticket}).`;
