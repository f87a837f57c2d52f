/**
 * Webhooks: where the service tells bots (Slack, Teams, email, ChatOps) about questions, how it
 * signs them, and how long it keeps trying a receiver that is down. Each is declared once, with
 * what docs/configuration.md says of it.
 */
import { z } from 'zod';
import { receiverUrlSyntaxProblem } from '../../webhooks/receiver-url';
import { secretProblem } from '../../webhooks/webhook-secret';
import { boolean, integer } from './value-kinds';
import { documented } from './documented';

/** A comma-separated list, trimmed, empty entries dropped; each entry checked by `problemOf`. */
const list = (problemOf: (entry: string) => string | undefined, what: string) =>
  z
    .string()
    .default('')
    .transform((text) =>
      text
        .split(',')
        .map((entry) => entry.trim())
        .filter(Boolean),
    )
    .superRefine((entries, ctx) => {
      // The entry is named by position only: a secret must not reach an error message or a log.
      entries.forEach((entry, i) => {
        const problem = problemOf(entry);
        if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `${what} ${i + 1} ${problem}` });
      });
    });

/** Webhooks */
export const WEBHOOK_VARIABLES = {
  WEBHOOK_URLS: documented(
    list(receiverUrlSyntaxProblem, 'URL'),
    'comma-separated receiver URLs each question event is POSTed to (waiting, reminder, escalated, answered, expired, cancelled); none, no webhooks. Each must be https, or http on a loopback address unless `WEBHOOK_ALLOW_HTTP=true`, and carry no credentials. A receiver gets every event once it answers 2xx; it is tried again on a timeout, a connection failure, 408, 429 or 5xx, and given up at once on a redirect or another 4xx. The worker sends them, so it must reach them',
    '(none)',
  ),
  WEBHOOK_SECRETS: documented(
    list(secretProblem, 'secret'),
    'comma-separated `whsec_<base64>` secrets (24 to 64 bytes; `echo whsec_$(openssl rand -base64 32)`), required with `WEBHOOK_URLS`. Every one signs each message (`webhook-signature` holds one `v1,` signature per secret, as [Standard Webhooks](https://www.standardwebhooks.com) does), so a receiver verifies with any of them. To rotate: add the new secret beside the old, give receivers the new one, then remove the old',
    '(none)',
  ),
  WEBHOOK_ALLOW_HTTP: documented(
    boolean('false'),
    '`true` lets `WEBHOOK_URLS` name plain http receivers that are not on loopback (a private network); bodies and signatures then travel in the clear',
  ),
  WEBHOOK_TIMEOUT_MS: documented(
    integer(100, 60_000).default(5000),
    "one delivery attempt's bound, from the request to the receiver's status; past it the attempt counts as failed and is tried again",
  ),
  WEBHOOK_MAX_ATTEMPTS: documented(
    integer(1, 1000).default(10),
    'attempts per receiver and event before the delivery is given up (`mcp_webhook_deliveries_total{outcome="given_up"}`); the exchange is never delayed by it',
  ),
  WEBHOOK_MAX_INTERVAL_MS: documented(
    integer(100).default(600_000),
    'the longest wait between two attempts: they start 1 s apart (or this, if less) and double up to it; a `Retry-After` is followed up to it',
  ),
  WEBHOOK_MAX_BODY_BYTES: documented(
    integer(1024, 1_048_576).default(65_536),
    "the largest body sent: a longer question's message is shortened (ending in `…`) to fit, and an event that cannot fit even so is given up",
  ),
};
