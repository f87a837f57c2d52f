/**
 * Which services of a compose file run, as `docker compose --profile NAME up` chooses them: a
 * service without `profiles:` always, one with them only when one of its profiles is active (`*`
 * activates every profile). A dependency on a service left out is dropped when it is declared
 * `required: false` (it orders the start only when that service runs), and is an error otherwise,
 * with the message compose gives.
 */

type RawService = Record<string, unknown>;

/** The services `profiles` enable, their optional dependencies on the others dropped. */
export function enabledServices(services: Record<string, RawService>, profiles: string[]): Record<string, RawService> {
  const active = new Set(profiles);
  const enabled = (raw: RawService) => {
    const own = Array.isArray(raw.profiles) ? raw.profiles.map(String) : [];
    return own.length === 0 || active.has('*') || own.some((profile) => active.has(profile));
  };
  const kept = Object.fromEntries(Object.entries(services).filter(([, raw]) => enabled(raw)));
  return Object.fromEntries(
    Object.entries(kept).map(([name, raw]) => {
      if (!raw.depends_on || Array.isArray(raw.depends_on)) {
        for (const dependency of (raw.depends_on as unknown[] | undefined) ?? [])
          if (!kept[String(dependency)] && services[String(dependency)])
            throw disabled(String(dependency), name, services[String(dependency)]!);
        return [name, raw];
      }
      const dependsOn: Record<string, unknown> = {};
      for (const [dependency, spec] of Object.entries(raw.depends_on as Record<string, unknown>)) {
        if (kept[dependency] || !services[dependency]) dependsOn[dependency] = spec;
        else if ((spec as { required?: unknown } | null)?.required !== false)
          throw disabled(dependency, name, services[dependency]);
      }
      return [name, { ...raw, depends_on: dependsOn }];
    }),
  );
}

function disabled(dependency: string, dependent: string, raw: RawService): Error {
  const profiles = Array.isArray(raw.profiles) ? raw.profiles.map(String) : [];
  return new Error(
    `service ${dependency} is required by ${dependent} but is disabled. Can be enabled by profiles [${profiles.join(' ')}]`,
  );
}
