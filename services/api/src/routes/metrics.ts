/** GET /metrics: the API process's Prometheus metrics (lib/metrics/catalog.ts names them). */
import { Router } from 'express';
import type { Registry } from 'prom-client';
import type { Logger } from '../../../../lib/log';

export function metricsRouter(registry: Registry, log: Logger): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
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
