/**
 * `inputRequired(...)` as the handler package exports it: the SDK's builder, the same function at
 * run time, whose result also carries (in its type only) the keys it asks under. A typed tool's
 * `run` may return an ask only under keys it declared in `asks`, so a misspelt key in
 * `inputRequests` is a compile error where it is written, not an answer that never reads back.
 */
import {
  inputRequired as sdkInputRequired,
  type InputRequest,
  type InputRequiredResult,
} from '@modelcontextprotocol/server';

declare const ASKED: unique symbol;

/** An ask whose `inputRequests` keys are `K`; with no keys (a state-only round) it fits any tool. */
export type AskedResult<K extends string> = InputRequiredResult & { readonly [ASKED]?: K };

export interface InputRequiredBuilder extends Pick<
  typeof sdkInputRequired,
  'elicit' | 'elicitUrl' | 'createMessage' | 'listRoots'
> {
  /**
   * The value a handler returns when it needs input: the embedded requests, each under a key of
   * its own (for a typed tool, one it declared in `asks`), and the state to see again next round.
   */
  <R extends Record<string, InputRequest> = Record<never, never>>(spec: {
    inputRequests?: R;
    requestState?: string;
  }): AskedResult<NoInfer<keyof R & string>>;
}

export const inputRequired: InputRequiredBuilder = sdkInputRequired;
