/**
 * docker-compose.yml is what operators run, and no Docker engine runs here to try it: so it is
 * checked against the Compose Specification's own JSON schema (deploy/compose-spec/, validated
 * with ajv), and against the service: every variable lib/config.ts reads is set for the api and
 * the worker with the same default, images are pinned, and published ports stay on loopback.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json';
import { parse } from 'yaml';
import { CONFIG_VARIABLES } from '../lib/config';
import { projectRoot } from '../lib/paths';

const ROOT = projectRoot();
const text = readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8');
// Merge keys (`<<: *anchor`) are YAML 1.1, which Compose reads: resolve them as Compose does.
const compose = parse(text, { merge: true }) as {
  services: Record<
    string,
    { image?: string; environment?: Record<string, unknown>; ports?: string[]; stop_grace_period?: string }
  >;
};

/** `${NAME:-default}` → its default; `${NAME:?message}` → required; a literal → itself. */
function composeDefault(value: unknown): { required: boolean; value?: string } {
  const raw = String(value);
  const m = /^\$\{([A-Z0-9_]+)(?::-(.*)|:\?.*)?\}$/s.exec(raw);
  if (!m) return { required: false, value: raw };
  return m[2] === undefined ? { required: true } : { required: false, value: m[2] };
}

/** A Compose duration (`30s`, `1m30s`, `1500ms`) in milliseconds. */
function composeDurationMs(duration: string): number {
  const unitMs: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(us|ms|s|m|h)/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== duration) throw new Error(`not a duration: ${duration}`);
  return parts.reduce((ms, [, value, unit]) => ms + Number(value) * unitMs[unit!]!, 0);
}

/** What stopping takes after its grace (closing the Temporal connection and the Postgres pools). */
const STOP_HEADROOM_MS = 5_000;

/** The variable each service's own stop waits on: the API's drain, the worker's round grace. */
const STOP_GRACE = { api: 'API_DRAIN_GRACE_MS', worker: 'WORKER_SHUTDOWN_GRACE_MS' } as const;

describe('docker-compose.yml', () => {
  const schema = JSON.parse(readFileSync(path.join(ROOT, 'deploy/compose-spec/compose-spec.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  // The schema names draft-07 by its https address; ajv ships that meta-schema under the http one.
  ajv.addMetaSchema(draft07, 'https://json-schema.org/draft-07/schema');
  const validate = ajv.compile(schema);

  it('is valid against the Compose Specification schema', () => {
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would be refused with a key the specification does not know (the check has teeth)', () => {
    const broken = structuredClone(compose) as { services: Record<string, Record<string, unknown>> };
    broken.services.api!.restrat = 'always';
    expect(validate(broken)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toContain('/services/api');
  });

  it.each(['api', 'worker'])('sets every variable the %s reads, with the service default', (name) => {
    const env = compose.services[name]!.environment ?? {};
    const missing = CONFIG_VARIABLES.filter((v) => !(v.name in env)).map((v) => v.name);
    expect(missing).toEqual([]);
    const differing = CONFIG_VARIABLES.flatMap((v) => {
      const set = composeDefault(env[v.name]);
      // Required ones are required there too; compose may choose its own value for a few (the
      // container's listen address, its production NODE_ENV) but never a silent different default.
      if (v.default === undefined) return set.required || set.value ? [] : [`${v.name}: no value`];
      if (set.required || set.value === v.default || COMPOSE_CHOOSES.has(v.name)) return [];
      return [`${v.name}: compose ${JSON.stringify(set.value)}, service ${JSON.stringify(v.default)}`];
    });
    expect(differing).toEqual([]);
  });

  it.each(Object.entries(STOP_GRACE))(
    'gives the %s time to stop by itself: its grace (%s) and the headroom fit in stop_grace_period',
    (name, variable) => {
      const service = compose.services[name]!;
      // Compose's own default is 10 s: a service that does not say would be killed mid-grace.
      const periodMs = composeDurationMs(service.stop_grace_period ?? '10s');
      const graceMs = Number(composeDefault(service.environment?.[variable]).value);
      expect(Number.isFinite(graceMs)).toBe(true);
      expect(graceMs + STOP_HEADROOM_MS).toBeLessThanOrEqual(periodMs);
    },
  );

  it('reads Compose durations', () => {
    expect([composeDurationMs('30s'), composeDurationMs('1m30s'), composeDurationMs('1500ms')]).toEqual([
      30_000, 90_000, 1_500,
    ]);
    expect(() => composeDurationMs('30')).toThrow();
  });

  // The service's own image is built from ./Dockerfile and tagged `local` unless MCP_IMAGE_TAG says otherwise.
  it('pins every image to a version', () => {
    const unpinned = Object.entries(compose.services)
      .filter(([, s]) => s.image && !/:(\$\{[A-Z_]+:-)?(\d[\w.-]*|local)\}?$/.test(s.image))
      .map(([name, s]) => `${name}: ${s.image}`);
    expect(unpinned).toEqual([]);
  });

  it("wires the Temporal UI to the API's codec endpoint, as the browser reaches it, with credentials", () => {
    const ui = compose.services['temporal-ui']!.environment ?? {};
    // The browser fetches it: the API's host-side address, never the compose network's http://api:3000.
    expect(ui.TEMPORAL_CODEC_ENDPOINT).toBe('${TEMPORAL_CODEC_ENDPOINT:-http://127.0.0.1:${API_PORT:-3000}/codec}');
    expect(ui.TEMPORAL_CODEC_INCLUDE_CREDENTIALS).toBe('true');
    expect(compose.services.api!.ports).toContain('${API_BIND_ADDRESS:-127.0.0.1}:${API_PORT:-3000}:3000');
    // The API answers CORS for the UI's origin, which is where compose publishes the UI.
    const uiUrl = composeDefault(compose.services.api!.environment!.TEMPORAL_UI_URL).value;
    expect(uiUrl).toBe('http://127.0.0.1:8080');
    expect(compose.services['temporal-ui']!.ports).toContain(
      '${TEMPORAL_UI_BIND_ADDRESS:-127.0.0.1}:${TEMPORAL_UI_PORT:-8080}:8080',
    );
  });

  it('publishes ports on 127.0.0.1 unless told otherwise', () => {
    const open = Object.entries(compose.services).flatMap(([name, s]) =>
      (s.ports ?? []).filter((p) => !/^(\$\{[A-Z_]+:-)?127\.0\.0\.1\}?:/.test(p)).map((p) => `${name}: ${p}`),
    );
    expect(open).toEqual([]);
  });
});

/** Values compose sets on purpose: where the containers listen and reach each other, its UI's address, production. */
const COMPOSE_CHOOSES = new Set([
  'HOST',
  'PORT',
  'WORKER_METRICS_HOST',
  'NODE_ENV',
  'DATABASE_URL',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_UI_URL',
]);
