/**
 * Builds a process's Prometheus registry from the catalog: the catalog's metrics for that process,
 * plus Node's own process metrics (CPU, memory, event loop, GC) from prom-client.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { MetricDefinition } from './catalog';

export function createRegistry(): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return registry;
}

type LabelsOf<D extends MetricDefinition> = D['labelNames'][number] & string;

/** What every metric takes from its catalog entry: name, help and labels, registered in `registry`. */
function fromCatalog<D extends MetricDefinition>(registry: Registry, definition: D) {
  return {
    name: definition.name,
    help: definition.help,
    labelNames: definition.labelNames as LabelsOf<D>[],
    registers: [registry],
  };
}

export function counterOf<D extends MetricDefinition & { kind: 'counter' }>(
  registry: Registry,
  definition: D,
): Counter<LabelsOf<D>> {
  return new Counter(fromCatalog(registry, definition));
}

export function histogramOf<D extends MetricDefinition & { kind: 'histogram' }>(
  registry: Registry,
  definition: D,
): Histogram<LabelsOf<D>> {
  return new Histogram({ ...fromCatalog(registry, definition), buckets: [...(definition.buckets ?? [])] });
}

/** `collect` runs at every scrape, to set the gauge from where its value lives. */
export function gaugeOf<D extends MetricDefinition & { kind: 'gauge' }>(
  registry: Registry,
  definition: D,
  collect?: (gauge: Gauge<LabelsOf<D>>) => Promise<void> | void,
): Gauge<LabelsOf<D>> {
  return new Gauge({
    ...fromCatalog(registry, definition),
    ...(collect
      ? {
          collect(this: Gauge<LabelsOf<D>>) {
            return collect(this);
          },
        }
      : {}),
  });
}
