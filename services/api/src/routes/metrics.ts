/**
 * GET /metrics: the API process's Prometheus metrics (lib/metrics/catalog.ts names them). Public
 * unless METRICS_TOKEN is set; then only `Authorization: Bearer <METRICS_TOKEN>` (a Prometheus
 * scrape config's `authorization`) reads them, anything else gets 401.
 */
import { Router } from 'express';
import type { Registry } from 'prom-client';
import { bearerTokenCheck } from '../../../../lib/auth/bearer-token';
import type { Logger } from '../../../../lib/log';

export function metricsRouter(registry: Registry, log: Logger, token?: string): Router {
  const router = Router();
  const check = token !== undefined ? bearerTokenCheck(token) : undefined;
  router.get('/metrics', async (req, res) => {
    if (check && check(req.get('authorization')) !== 'valid') {
      res.status(401).set('WWW-Authenticate', 'Bearer realm="durable-mcp metrics"').type('text/plain');
      res.send('an Authorization: Bearer <METRICS_TOKEN> header is required\n');
      return;
    }
    try {
      const text = await registry.metrics();
      res.status(200).set('Content-Type', registry.contentType).set('Cache-Control', 'no-store').send(text);
    } catch (error) {
      log.warn({ err: error }, 'metrics could not be collected');
      res.status(500).type('text/plain').send('metrics could not be collected\n');
    }
  });
  return router;
}
