/**
 * Reads one answer of a round. For a typed handler's `ctx.inputResponses` (asks.ts `Answers`),
 * the key must be one it declared and the view is typed by that declaration, a form's content
 * checked against its schema; for any other record it is the SDK's `inputResponse`, unchanged.
 */
import {
  inputResponse as sdkInputResponse,
  type InputResponses,
  type InputResponseView,
} from '@modelcontextprotocol/server';
import { declaredAsksOf, formView, type Answers, type AnswerView, type Asks } from './asks';

export function inputResponse<A extends Asks, K extends keyof A & string>(
  responses: Answers<A>,
  key: K,
): AnswerView<A[K]>;
export function inputResponse(
  responses: InputResponses | Record<string, unknown> | undefined,
  key: string,
): InputResponseView;
export function inputResponse(responses: unknown, key: string): unknown {
  const view = sdkInputResponse(responses as Record<string, unknown> | undefined, key);
  const declared = declaredAsksOf(responses)?.[key];
  if (!declared || view.kind === 'missing') return view;
  if (declared.kind === 'elicit') return view.kind === 'elicit' ? formView(declared, view) : { kind: 'missing' };
  // An answer of another kind than the one declared is no answer to it.
  return view.kind === declared.kind ? view : { kind: 'missing' };
}
