/**
 * The handler-authoring API of durable-mcp. A handler is written once, in the 2026-07-28 style:
 * when it needs something from the user it returns an ask built with `inputRequired(...)`, and it
 * is re-executed from the top each round with the answers under the keys it asked for
 * (`ctx.inputResponses`, read with `inputResponse(...)` for a discriminated view) and the state it
 * returned with its ask (`ctx.requestState`). It cannot tell which era of client fulfilled the ask.
 *
 * Because a handler re-executes, everything before its last ask runs again each round: keep it
 * deterministic (no clocks or random values in the question; put those in `requestState`) and put
 * side effects after the last ask.
 */
export { acceptedContent, isInputRequiredResult } from '@modelcontextprotocol/server';
export { inputRequired, type AskedResult, type InputRequiredBuilder } from './typed/asked';
export { inputResponse } from './typed/input-response';
export { ask, type Answers, type AnswerView, type AskDeclaration, type Asks, type FormAsk } from './typed/asks';
export type { TypedContext, TypedResult, TypedToolHandler } from './typed/typed-tool';
export type { InputResponseView } from '@modelcontextprotocol/server';
export type { HandlerContext, HandlerLogger, LogMethod, Principal } from './context';
export {
  type Completer,
  type HandlerSet,
  type PromptHandler,
  type ResourceHandler,
  type ResourceTemplate,
  type ResourceTemplateHandler,
  type RoundActivity,
  type IdenticalCalls,
  type LongWait,
  type TaskBegins,
  type TaskPriority,
  type TaskSupport,
  type ToolHandler,
  type WaitDeclaration,
} from './definitions';
export { definePrompt, defineResource, defineResourceTemplate, defineTool } from './define';
export {
  ADDRESSED_TO,
  answerer,
  elicitFrom,
  type AddressedRequest,
  type Addressing,
  type AnsweredBy,
  type Answerer,
  type SignInRequirement,
} from './addressed';
export { answerError, type AnswerError } from './answer-error';
export { isProtocolError, ProtocolError } from './protocol-error';
