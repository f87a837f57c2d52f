/**
 * An upstream's prompts and resources as handlers: each `prompts/get` or `resources/read` of one is
 * an exchange whose rounds call the upstream's own method (upstream-round.ts, as a tool's calls
 * are: the same idempotency key per round, tracing, size limits, retries, circuit breaker and
 * error passing). An upstream `InputRequiredResult` is the round's ask.
 *
 * A prompt is listed under the upstream's `toolPrefix`, as its tools are; a resource keeps its URI
 * (a URI names the thing itself: renaming it would break every link to it), and a template its
 * `uriTemplate`. No policy applies to them: approval policies are for tools.
 *
 * What the caller gets when the upstream cannot answer: its JSON-RPC error passed on (the message
 * naming the upstream); a failure to reach it, or an answer past its limits, as a JSON-RPC error
 * `-32603` saying so (a prompt or a resource has no tool error to carry it).
 */
import {
  ProtocolError,
  type HandlerContext,
  type PromptHandler,
  type ResourceHandler,
  type ResourceTemplate,
  type ResourceTemplateHandler,
} from '@durable-mcp/handlers';
import type { GetPromptResult, Prompt, ReadResourceResult, Resource } from '@modelcontextprotocol/server';
import type { Upstream } from '../upstreams/upstream-declaration';
import { INTERNAL_ERROR } from '../protocol/json-rpc-codes';
import type { UpstreamClient } from './upstream-client';
import type { UpstreamTarget } from './upstream-requests';
import { readGatewayState } from './gateway-state';
import { forwardRound } from './upstream-round';

/** The prompt as the service lists it: the upstream's description under its prefixed name. */
export const listedPrompt = (upstream: Upstream, prompt: Prompt): Prompt => ({
  ...prompt,
  name: `${upstream.toolPrefix}${prompt.name}`,
});

const unanswered = (text: string): never => {
  throw new ProtocolError(INTERNAL_ERROR, text);
};

/** A round of a prompt's get or a resource's read: the upstream's state and the answers to its ask, if it asked. */
function round<R>(
  upstream: Upstream,
  client: UpstreamClient,
  target: UpstreamTarget,
  label: string,
  ctx: HandlerContext,
) {
  const state = readGatewayState(ctx.requestState);
  return forwardRound<R>(
    { upstream, client, target, label, failed: unanswered, result: (result) => result as R },
    ctx,
    {
      inputResponses: state.forwarded ? ctx.inputResponses : {},
      ...(state.upstream !== undefined ? { upstreamState: state.upstream } : {}),
    },
  );
}

export function upstreamPromptHandler(upstream: Upstream, client: UpstreamClient, prompt: Prompt): PromptHandler {
  return {
    prompt: listedPrompt(upstream, prompt),
    // The upstream's round kind, as its tools' (upstream-tool.ts).
    roundActivity: upstream.roundActivity,
    run: (args, ctx) =>
      round<GetPromptResult>(
        upstream,
        client,
        { method: 'prompts/get', name: prompt.name, arguments: args },
        `prompt ${prompt.name}`,
        ctx,
      ),
  };
}

export function upstreamResourceHandler(
  upstream: Upstream,
  client: UpstreamClient,
  resource: Resource,
): ResourceHandler {
  return {
    resource,
    roundActivity: upstream.roundActivity,
    read: (uri, ctx) =>
      round<ReadResourceResult>(upstream, client, { method: 'resources/read', uri }, `resource ${uri}`, ctx),
  };
}

export function upstreamTemplateHandler(
  upstream: Upstream,
  client: UpstreamClient,
  template: ResourceTemplate,
): ResourceTemplateHandler {
  return {
    template,
    roundActivity: upstream.roundActivity,
    read: (uri, _variables, ctx) =>
      round<ReadResourceResult>(upstream, client, { method: 'resources/read', uri }, `resource ${uri}`, ctx),
  };
}
