/**
 * The admin API, mounted at /admin only when ADMIN_TOKEN is set (every route behind its bearer
 * token):
 *
 * - `GET /admin/exchanges`: exchanges newest first, filtered and keyset-paged (list-query.ts).
 * - `GET /admin/exchanges/:id`: one exchange, its rounds (asks, answers, timings, outcome), its
 *   session, its workflow's status in Temporal and its Temporal Web UI link.
 * - `POST /admin/exchanges/:id/cancel` (optional JSON body `{ "reason": "..." }`): ends a running
 *   exchange exactly as a client cancel does. 200 once the ending is recorded, 202 when it is
 *   signalled but no worker recorded it within HTTP_WAIT_MS, 409 when the exchange had already
 *   ended (nothing is signalled), 404 for an unknown id.
 *
 * - `GET /admin/evidence?exchange=<id>` or `?from=<time>&to=<time>`: an export of the evidence log
 *   as JSON lines (evidence-export-route.ts).
 *
 * - `GET /admin/deployment` (WORKER_VERSIONING=pinned): the worker deployment's versions, newest
 *   first, each with its status (`current`, `draining`, `drained`...) and its running exchanges
 *   (those pinned to it, from Temporal's visibility): a version no longer current whose count is 0
 *   can stop its workers. 404 with versioning off.
 *
 * A client address that sends too many wrong tokens gets 429 for a while (token-guesses.ts).
 * Errors are `{ error: { code, message, parameter? } }` (admin-errors.ts). This module reads
 * through the admin store and acts through the gateway; it imports neither protocol era.
 */
import express, { type ErrorRequestHandler, Router } from 'express';
import type { AdminStore } from '../../../../lib/db/admin-store';
import type { QuestionStore } from '../../../../lib/db/question-store';
import { questionsView } from './questions-view';
import type { EvidenceReader } from '../../../../lib/db/evidence-log-pg';
import { evidenceExportRoute } from './evidence-export-route';
import { logExchange, type Logger } from '../../../../lib/log';
import type { DeploymentView } from '../../../../lib/temporal/worker-deployment';
import type { ExchangeGateway } from '../../../../lib/exchange-client/exchange-gateway';
import { InvalidParameter } from './admin-errors';
import { operatorError } from '../http/operator-error';
import { bearerAuth } from '../auth/bearer-auth';
import { cancelExchange, type CancelDeps } from './cancel-exchange';
import { detailView, summaryView, type ViewContext } from './exchange-view';
import { encodeCursor, parseListQuery } from './list-query';
import type { TokenGuesses } from '../auth/token-guesses';

export interface AdminRouterDeps extends Omit<CancelDeps, 'admin'> {
  token: string;
  /** Wrong tokens per client address (token-guesses.ts), shared with the codec endpoint. */
  guesses: TokenGuesses;
  admin: AdminStore;
  /** The exchanges' questions addressed to someone else, and every attempt to answer them. */
  questions: Pick<QuestionStore, 'ofExchange' | 'attemptsOf'>;
  gateway: ExchangeGateway;
  temporal: { namespace: string; uiUrl?: string };
  /** How long the show route waits for Temporal's view of the workflow before saying `unavailable`. */
  describeTimeoutMs: number;
  /** The evidence log, for exports (`GET /admin/evidence`). */
  evidence: EvidenceReader;
  /** The worker deployment's versions and what they hold (WORKER_VERSIONING=pinned); absent when off. */
  describeDeployment?: () => Promise<DeploymentView | undefined>;
  log: Logger;
}

const MAX_REASON_LENGTH = 256;
const DEFAULT_REASON = 'cancelled by an operator through the admin API';

/** Temporal's status of the exchange's workflow, or `unavailable` when it does not answer in time. */
async function workflowStatusOf(gateway: ExchangeGateway, id: string, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve('unavailable'), timeoutMs);
  });
  try {
    return await Promise.race([gateway.workflowStatus(id).catch(() => 'unavailable'), late]);
  } finally {
    clearTimeout(timer);
  }
}

function reasonOf(body: unknown): string {
  if (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0))
    return DEFAULT_REASON;
  if (typeof body !== 'object' || Array.isArray(body))
    throw new InvalidParameter('body', 'the body must be a JSON object');
  const { reason, ...rest } = body as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new InvalidParameter(extra, `unknown field ${extra} (known: reason)`);
  if (reason === undefined) return DEFAULT_REASON;
  if (typeof reason !== 'string' || reason.length === 0 || reason.length > MAX_REASON_LENGTH)
    throw new InvalidParameter('reason', `reason must be a string of 1 to ${MAX_REASON_LENGTH} characters`);
  return reason;
}

export function adminRouter(deps: AdminRouterDeps): Router {
  const router = Router();
  const context = (): ViewContext => ({
    now: Date.now(),
    ui: { baseUrl: deps.temporal.uiUrl, namespace: deps.temporal.namespace },
  });
  router.use(bearerAuth(deps.token, deps.guesses, deps.log));
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/exchanges', async (req, res) => {
    const query = parseListQuery(req.query as Record<string, unknown>);
    // One row more than the page tells whether another page follows.
    const rows = await deps.admin.listExchanges(query.filter, { limit: query.limit + 1, after: query.after });
    const page = rows.slice(0, query.limit);
    const ctx = context();
    res.json({
      exchanges: page.map((row) => summaryView(row, ctx)),
      limit: query.limit,
      ...(rows.length > query.limit ? { nextCursor: encodeCursor(page.at(-1)!.position) } : {}),
    });
  });

  router.get('/exchanges/:id', async (req, res) => {
    const detail = await deps.admin.getExchange(req.params.id);
    if (!detail) return operatorError(res, 404, 'not_found', `No exchange ${req.params.id}`);
    logExchange(detail.exchange.id);
    const status = await workflowStatusOf(deps.gateway, detail.exchange.id, deps.describeTimeoutMs);
    const [questions, attempts] = await Promise.all([
      deps.questions.ofExchange(detail.exchange.id),
      deps.questions.attemptsOf(detail.exchange.id),
    ]);
    res.json({
      ...detailView(detail, status, context()),
      ...(questions.length > 0 ? { questions: questionsView(questions, attempts) } : {}),
    });
  });

  router.post('/exchanges/:id/cancel', express.json({ limit: '4kb', strict: false }), async (req, res) => {
    const reason = reasonOf(req.body);
    const result = await cancelExchange(deps, req.params.id, reason);
    if (result.kind !== 'not-found') logExchange(result.exchange.id);
    const ctx = context();
    switch (result.kind) {
      case 'not-found':
        return operatorError(res, 404, 'not_found', `No exchange ${req.params.id}`);
      case 'already-ended':
        return operatorError(res, 409, 'already_ended', `The exchange had already ended (${result.exchange.status})`, {
          exchange: summaryView(result.exchange, ctx),
        });
      case 'ended':
        deps.log.info(
          { exchangeId: result.exchange.id, status: result.exchange.status },
          'exchange cancelled by an operator',
        );
        return res.status(200).json({ cancelled: true, exchange: summaryView(result.exchange, ctx) });
      case 'requested':
        deps.log.info(
          { exchangeId: result.exchange.id },
          'exchange cancel signalled by an operator; ending not yet recorded',
        );
        return res.status(202).json({ cancelled: false, requested: true, exchange: summaryView(result.exchange, ctx) });
    }
  });

  router.get('/evidence', evidenceExportRoute(deps.evidence));

  router.get('/deployment', async (_req, res) => {
    if (!deps.describeDeployment) {
      return operatorError(res, 404, 'not_found', 'Worker versioning is off (WORKER_VERSIONING=off)');
    }
    const view = await deps.describeDeployment();
    if (!view) {
      return operatorError(res, 404, 'not_found', 'No worker of the deployment has polled Temporal yet');
    }
    res.json(view);
  });

  router.use((_req, res) => operatorError(res, 404, 'not_found', 'No such admin route'));
  router.use(adminErrors(deps.log));
  return router;
}

/** Refusals as 400 naming the parameter; a dependency that fails as 503; the rest as 500. */
function adminErrors(log: Logger): ErrorRequestHandler {
  return (error, _req, res, _next) => {
    if (error instanceof InvalidParameter)
      return operatorError(res, 400, 'invalid_parameter', error.message, { parameter: error.parameter });
    const status = typeof error?.status === 'number' ? error.status : 500;
    if (status === 413)
      return operatorError(res, 413, 'invalid_parameter', 'The request body is too large', { parameter: 'body' });
    if (status >= 400 && status < 500)
      return operatorError(res, 400, 'invalid_parameter', 'The request body is not valid JSON', { parameter: 'body' });
    log.error({ err: error }, 'admin request failed');
    operatorError(res, 503, 'unavailable', 'The admin request could not be served (Postgres or Temporal unavailable?)');
  };
}
