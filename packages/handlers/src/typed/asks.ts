/**
 * The asks a typed handler declares (`asks: { approval: ask.form(schema), where: ask.roots() }`):
 * each names its kind and, for a form, the Standard Schema of its content, so the request a round
 * sends is built from the declaration (`ask.form(schema).request({ message })`: its
 * `requestedSchema` is the schema's JSON Schema) and the answer it reads is typed by it
 * (`inputResponse(ctx.inputResponses, 'approval')`). Reading a key that was never declared, or a
 * field its kind does not have, does not compile.
 */
import {
  inputRequired,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type InputRequest,
  type Root,
} from '@modelcontextprotocol/server';
import { elicitFrom, type Addressing, type AddressedRequest } from '../addressed';
import { check, jsonSchemaOf, type Infer, type StandardSchemaV1, type StandardSchemaWithJSON } from './schema';

/** A form the client (or someone else: `from`) fills in, its content checked against `schema`. */
export interface FormAsk<S extends StandardSchemaWithJSON = StandardSchemaWithJSON> {
  readonly kind: 'elicit';
  readonly schema: S;
  /** The form, to the caller. */
  request(params: { message: string }): InputRequest;
  /** The form, addressed to someone other than the caller (`elicitFrom`). */
  from(addressing: Addressing, params: { message: string }): AddressedRequest;
}
export interface SamplingAsk {
  readonly kind: 'sampling';
  request(params: CreateMessageRequestParams): InputRequest;
}
export interface RootsAsk {
  readonly kind: 'roots';
  request(): InputRequest;
}
export type AskDeclaration = FormAsk | SamplingAsk | RootsAsk;
export type Asks = Record<string, AskDeclaration>;

/** Builders of ask declarations. */
export const ask = {
  form<S extends StandardSchemaWithJSON>(schema: S): FormAsk<S> {
    const requestedSchema = () => jsonSchemaOf(schema, 'input');
    return {
      kind: 'elicit',
      schema,
      request: ({ message }) => inputRequired.elicit({ message, requestedSchema: requestedSchema() } as never),
      from: (addressing, { message }) =>
        elicitFrom(addressing, { message, requestedSchema: requestedSchema() } as never),
    };
  },
  sampling: (): SamplingAsk => ({ kind: 'sampling', request: (params) => inputRequired.createMessage(params) }),
  roots: (): RootsAsk => ({ kind: 'roots', request: () => inputRequired.listRoots() }),
};

/** What one answer is, as its declaration types it. `invalid`: a form's content its schema refuses. */
export type AnswerView<D extends AskDeclaration> =
  | { kind: 'missing' }
  | (D extends FormAsk<infer S>
      ? | { kind: 'elicit'; action: 'accept'; content: Infer<S> }
        | { kind: 'elicit'; action: 'decline' | 'cancel' }
        | { kind: 'invalid'; issues: ReadonlyArray<StandardSchemaV1.Issue> }
      : D extends SamplingAsk
        ? { kind: 'sampling'; result: CreateMessageResult }
        : { kind: 'roots'; roots: Root[] });

declare const ASKS: unique symbol;
const DECLARED = Symbol.for('@durable-mcp/handlers.declaredAsks');

/**
 * A typed handler's `ctx.inputResponses`: the answers to its declared asks, read with
 * `inputResponse(responses, key)`. Not a plain record, so an undeclared key is a type error there.
 */
export interface Answers<A extends Asks> {
  readonly [ASKS]: A;
}

/** The raw answers of a round as a typed handler's `Answers`, carrying its declarations for the reader. */
export function answersOf<A extends Asks>(raw: Record<string, unknown>, asks: A): Answers<A> {
  const answers = { ...raw };
  Object.defineProperty(answers, DECLARED, { value: asks, enumerable: false });
  return answers as unknown as Answers<A>;
}

/** The declarations `answersOf` attached, if `responses` came from it. */
export function declaredAsksOf(responses: unknown): Asks | undefined {
  return (responses as Record<symbol, Asks | undefined> | undefined)?.[DECLARED];
}

/** A form's answer, its accepted content checked against the declaration's schema. */
export function formView(declaration: FormAsk, answer: { action: string; content?: unknown }): AnswerView<FormAsk> {
  if (answer.action !== 'accept') return { kind: 'elicit', action: answer.action as 'decline' | 'cancel' };
  const checked = check(declaration.schema, answer.content ?? {});
  return checked.ok
    ? { kind: 'elicit', action: 'accept', content: checked.value }
    : { kind: 'invalid', issues: checked.issues };
}
