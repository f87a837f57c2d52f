/**
 * Where a compose service lives when it runs as OS processes on one host instead of in its own
 * container. Each service gets an address of its own on the loopback network (127.x.y.z: all of
 * 127/8 is loopback on Linux), so every service keeps the ports compose gives it (Postgres on
 * 5432, Temporal's frontend on 7233 and its internal ports, the API on 3000) without clashing with
 * another topology or anything else on 127.0.0.1. What a container would see is then translated,
 * and nothing else:
 *
 * - a service name used as a host (`temporal:7233`, `@postgresql:5432/`, or the whole value of a
 *   `*_SEEDS`, `*_HOST` or `*_ADDRESS` variable) becomes that service's address;
 * - `0.0.0.0` (all of a container's interfaces) becomes the service's own address, and in its
 *   health check so do `127.0.0.1` and `localhost` (inside a container, the container itself);
 * - a path inside a bind mount (`/tls/ca.pem`, `/scripts/setup-postgres.sh`) becomes the host path.
 */
import path from 'node:path';
import type { ComposeProject, ComposeService, HealthCheck, Mount } from './compose-project';

export interface PlacedService extends ComposeService {
  /** The service's own loopback address. */
  address: string;
}

/** `prefix` is the first three octets, e.g. `127.0.83`: services get `.2`, `.3`, ... in file order. */
export function placeServices(project: ComposeProject, prefix: string): Record<string, PlacedService> {
  if (!/^127\.\d{1,3}\.\d{1,3}$/.test(prefix)) throw new Error(`not a loopback prefix: ${prefix}`);
  const names = Object.keys(project.services);
  const addresses = Object.fromEntries(names.map((name, index) => [name, `${prefix}.${index + 2}`]));
  return Object.fromEntries(
    names.map((name) => {
      const service = project.services[name]!;
      const own = addresses[name]!;
      const translate = (value: string) => fromMounts(hosts(value, addresses), service.mounts);
      const translateArgs = (args: string[] | undefined) => args?.map((arg) => fromMounts(arg, service.mounts));
      return [
        name,
        {
          ...service,
          address: own,
          environment: Object.fromEntries(
            Object.entries(service.environment).map(([key, value]) => [
              key,
              value === '0.0.0.0' ? own : (wholeHost(key, value, addresses) ?? translate(value)),
            ]),
          ),
          ...(service.entrypoint ? { entrypoint: translateArgs(service.entrypoint) } : {}),
          ...(service.command ? { command: translateArgs(service.command) } : {}),
          ...(service.healthcheck ? { healthcheck: ownHealthCheck(service.healthcheck, own) } : {}),
        } satisfies PlacedService,
      ];
    }),
  );
}

const HOST_VARIABLE = /(_SEEDS|_HOST|_ADDRESS)$/;

/** A variable whose whole value is a service name, and which names a host. */
function wholeHost(key: string, value: string, addresses: Record<string, string>): string | undefined {
  return HOST_VARIABLE.test(key) && addresses[value] ? addresses[value] : undefined;
}

/** `name:port` where a host stands: at the start, after `@` or after `//`. */
function hosts(value: string, addresses: Record<string, string>): string {
  return value.replace(/(^|@|\/\/)([a-z0-9][a-z0-9_.-]*)(?=:\d)/g, (match, before: string, name: string) =>
    addresses[name] ? `${before}${addresses[name]}` : match,
  );
}

/** A container path inside a bind mount, as the host path it comes from. */
export function fromMounts(value: string, mounts: Mount[]): string {
  if (!value.startsWith('/')) return value;
  const mount = mounts
    .filter((m) => value === m.target || value.startsWith(`${m.target.replace(/\/$/, '')}/`))
    .sort((a, b) => b.target.length - a.target.length)[0];
  return mount ? path.join(mount.source, path.relative(mount.target, value)) : value;
}

function ownHealthCheck(check: HealthCheck, own: string): HealthCheck {
  return {
    ...check,
    command: check.command.map((arg) => arg.replace(/\b(127\.0\.0\.1|localhost)\b/g, own)),
  };
}
