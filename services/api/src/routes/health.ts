/** The liveness route: the API and the services it depends on answer. */
import { Router } from 'express';

export interface HealthProbe {
  name: string;
  check(): Promise<void>;
}

/** GET /healthz: 200 once every dependency answers, 503 naming the ones that do not. */
export function healthRouter(probes: HealthProbe[]): Router {
  const router = Router();
  router.get('/healthz', async (_req, res) => {
    const results = await Promise.all(
      probes.map(async (probe) => {
        try {
          await probe.check();
          return [probe.name, 'ok'] as const;
        } catch (error) {
          return [probe.name, (error as Error).message || 'unreachable'] as const;
        }
      }),
    );
    const healthy = results.every(([, state]) => state === 'ok');
    res
      .status(healthy ? 200 : 503)
      .json({ status: healthy ? 'ok' : 'unavailable', checks: Object.fromEntries(results) });
  });
  return router;
}
