/**
 * The Node settings docker-compose.yml gives the api and worker containers (their `NODE_OPTIONS`:
 * heap sizes), as compose reads them (its defaults, unless the environment sets their variables),
 * so what runs the built processes without Docker (`npm run prod:local`, the bench's prod target)
 * runs them with the heap production has. Only `NODE_OPTIONS` is taken; the variables compose
 * requires (passwords, keys) get placeholders here, since nothing else of the file is used.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../lib/paths';
import { readComposeProject } from './compose-native/compose-project';

const COMPOSE_FILE = path.join(projectRoot(), 'docker-compose.yml');

/** `${NAME:?...}` or `${NAME?...}`: a variable compose refuses to start without. */
const REQUIRED_VARIABLE = /\$\{([A-Za-z_][A-Za-z0-9_]*):?\?/g;

export function composeNodeOptions(
  service: 'api' | 'worker',
  variables: Readonly<Record<string, string | undefined>> = process.env,
): { NODE_OPTIONS?: string } {
  const required = [...readFileSync(COMPOSE_FILE, 'utf8').matchAll(REQUIRED_VARIABLE)].map((match) => match[1]!);
  const project = readComposeProject([COMPOSE_FILE], {
    ...Object.fromEntries(required.map((name) => [name, 'placeholder'])),
    ...variables,
  });
  const options = project.services[service]?.environment.NODE_OPTIONS;
  return options ? { NODE_OPTIONS: options } : {};
}
