/**
 * Which receiver URLs the service sends webhooks to. A body names who may answer and what is
 * asked, so it travels over TLS: https, or plain http to a receiver on this host (a local bot, a
 * test), unless WEBHOOK_ALLOW_HTTP says a private network is meant. Credentials in a URL would sit
 * in configuration dumps and logs; a receiver authenticates the service by signature instead.
 */
import { isLoopbackHost } from '../loopback-host';

/** Why `text` cannot be a receiver URL whatever the rules on http, or undefined. */
export function receiverUrlSyntaxProblem(text: string): string | undefined {
  if (!URL.canParse(text)) return 'is not a URL';
  const url = new URL(text);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be https (or http)';
  if (url.username || url.password) return 'must not carry credentials (receivers verify the signature instead)';
  if (url.hash) return 'must not have a fragment';
  return undefined;
}

/** Why `text` may not be a receiver URL, or undefined when it may. */
export function receiverUrlProblem(text: string, allowHttp: boolean): string | undefined {
  const problem = receiverUrlSyntaxProblem(text);
  if (problem !== undefined) return problem;
  const url = new URL(text);
  if (url.protocol === 'http:' && !allowHttp && !isLoopbackHost(url.hostname))
    return 'must be https, or http on a loopback address (or set WEBHOOK_ALLOW_HTTP=true)';
  return undefined;
}
