/**
 * Builds the endpoints the API serves beside /mcp (api.ts): the answer API and pages (`/answers`),
 * for the people and bots questions are addressed to, the evidence log's public keys (`/.well-known/
 * durable-mcp/evidence-jwks.json`), and, when ADMIN_TOKEN is set, the admin API
 * and the codec endpoint for operators. Both read the questions from the same store, and the admin
 * and codec endpoints count wrong tokens together, so they are built in one place.
 */
import type { Connection } from '@temporalio/client';
import type { Router } from 'express';
import type { Pool } from 'pg';
import type { Config } from '../../../lib/config';
import type { AdminStore } from '../../../lib/db/admin-store';
import type { ExchangeStore } from '../../../lib/db/exchange-store';
import type { OutcomeWaiter } from '../../../lib/db/outcome-waiter';
import { createQuestionStorePg } from '../../../lib/db/question-store-pg';
import { createEvidenceLog, createEvidenceReader } from '../../../lib/db/evidence-log-pg';
import { evidenceKeysOf } from '../../../lib/config';
import { evidenceJwksRoute } from './evidence/evidence-jwks-route';
import { createDecisionSignerPg } from '../../../lib/db/gateway-decisions-pg';
import type { PgListener } from '../../../lib/db/pg-listener';
import { signedFirst, startDecisionSigning } from './evidence/decision-signing';
import type { Logger } from '../../../lib/log';
import { adminEndpoint } from './admin/admin-endpoint';
import { createTokenGuesses } from './auth/token-guesses';
import { answerEndpoint } from './answers/answer-endpoint';
import { codecEndpoint } from './codec/codec-endpoint';
import type { ExchangeGateway } from '../../../lib/exchange-client/exchange-gateway';
import type { ExchangeReconciler } from '../../../lib/exchange-client/exchange-reconciler';
import type { CallerPages } from './exchange-legs/leg-types';

export interface EndpointsBesideMcpDeps {
  pool: Pool;
  connection: Connection;
  admin: AdminStore;
  store: ExchangeStore;
  gateway: ExchangeGateway;
  reconciler: ExchangeReconciler;
  waiter: OutcomeWaiter;
  /** The API's LISTEN hub: it must LISTEN on DECISION_CHANNEL too (the gateway's decisions to sign). */
  listener: PgListener;
  log: Logger;
}

export interface EndpointsBesideMcp {
  /** The routers the app mounts (app.ts); admin and codec only when ADMIN_TOKEN is set. */
  routers: { answers: Router; evidenceJwks: Router; admin?: Router; codec?: Router };
  /** Stops the answers' re-signaller and the signing of gateway decisions, as the API drains. */
  stop(): void;
  /** The answer page, when it is on: the legs send questions addressed to the caller to its client in URL mode. */
  callerPages?: CallerPages;
}

export function endpointsBesideMcp(config: Config, deps: EndpointsBesideMcpDeps): EndpointsBesideMcp {
  const { pool, connection, admin, store, gateway, reconciler, waiter, listener, log } = deps;
  // Every decision on a question is signed into the evidence log in its claim's transaction; every
  // gateway decision a worker recorded, moments after (the worker holds no evidence key).
  const evidenceKeys = evidenceKeysOf(config);
  const evidenceLog = createEvidenceLog(evidenceKeys);
  const questions = createQuestionStorePg(pool, evidenceLog);
  const decisionSigner = createDecisionSignerPg(pool, evidenceLog);
  const decisionSigning = startDecisionSigning(decisionSigner, listener, log);
  const answers = answerEndpoint(config, {
    questions,
    gateway,
    log,
    traceOf: (exchangeId) => store.readTraceContext(exchangeId),
  });
  // Wrong admin (and encode) tokens per client address, counted across /admin and /codec alike.
  const guesses = createTokenGuesses(config.admin.tokenGuesses);
  const adminDeps = {
    admin,
    questions,
    evidence: signedFirst(createEvidenceReader(pool), decisionSigner),
    store,
    gateway,
    reconciler,
    waiter,
    log,
  };
  return {
    routers: {
      answers: answers.router,
      evidenceJwks: evidenceJwksRoute(evidenceKeys),
      ...(config.admin.token
        ? {
            admin: adminEndpoint(config, config.admin.token, connection, { guesses, ...adminDeps }),
            codec: codecEndpoint(config, config.admin.token, guesses, log),
          }
        : {}),
    },
    stop: () => {
      answers.stop();
      decisionSigning.stop();
    },
    ...(answers.callerPages ? { callerPages: answers.callerPages } : {}),
  };
}
