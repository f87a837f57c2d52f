// Pins the secret lists of process-role.ts to the declarations: every variable that holds a secret
// is in exactly one list, and each list names only variables the service reads. Deployments (the
// compose file, the Helm chart) give each process its secrets from these lists.
import { API_ONLY_SECRETS, API_REQUIRED_SECRETS, SHARED_SECRETS, WORKER_ONLY_SECRETS, secretsOf } from './process-role';
import { CONFIG_VARIABLES } from './schema';

/** Names that hold a credential, a key ring or a password (DATABASE_URL carries one). */
const LOOKS_SECRET = /PASSWORD|SECRET|TOKEN|_KEYS?$|^DATABASE_URL$/;
/** Names that look like a secret's and are not one: the budget of wrong tokens and its window, a list of token types, the source of the fairness key. */
const NOT_SECRETS = new Set([
  'ADMIN_TOKEN_MAX_FAILURES',
  'ADMIN_TOKEN_FAILURE_WINDOW_MS',
  'OAUTH_TOKEN_TYPES',
  'FAIRNESS_KEY',
]);

describe('secrets per process', () => {
  const lists = [...SHARED_SECRETS, ...API_ONLY_SECRETS, ...WORKER_ONLY_SECRETS];
  const names = CONFIG_VARIABLES.map((v) => v.name);

  it('lists every secret the service reads exactly once', () => {
    const secrets = names.filter((name) => LOOKS_SECRET.test(name) && !NOT_SECRETS.has(name));
    expect([...lists].sort()).toEqual(secrets.sort());
    expect(new Set(lists).size).toBe(lists.length);
  });

  it('names only declared variables, the required API ones among them', () => {
    expect(lists.filter((name) => !names.includes(name))).toEqual([]);
    for (const name of API_REQUIRED_SECRETS) expect(secretsOf('api')).toContain(name);
  });

  it('gives each process the shared secrets and its own, never the other one’s', () => {
    expect(secretsOf('api')).toEqual(expect.arrayContaining([...SHARED_SECRETS, ...API_ONLY_SECRETS]));
    expect(secretsOf('worker')).toEqual(expect.arrayContaining([...SHARED_SECRETS, ...WORKER_ONLY_SECRETS]));
    expect(secretsOf('api').filter((name) => (WORKER_ONLY_SECRETS as readonly string[]).includes(name))).toEqual([]);
    expect(secretsOf('worker').filter((name) => (API_ONLY_SECRETS as readonly string[]).includes(name))).toEqual([]);
  });
});
