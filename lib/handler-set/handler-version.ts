/**
 * Which version of its handlers a process serves, as the one string an exchange records (its
 * Postgres row, its `HandlerVersion` search attribute, its details in the Temporal UI) and the
 * worker compares with its own before it runs a round:
 *
 * - a built-in set: its name and the service's own package version, `demo@0.1.0` (the built-in
 *   sets ship with the service, so its version is theirs);
 * - a module: the `name@version` of the package.json that owns its file (`acme-tools@1.2.0`);
 * - a module no versioned package.json owns: its file's name and a digest of its bytes,
 *   `tools.js@sha256:1a2b3c4d5e6f`.
 *
 * The digest covers the resolved entry file only, not what it imports: a bundled build (one file)
 * is covered whole; a module that imports sibling files, its dependencies, or a tsx-compiled `.ts`
 * whose imports changed keeps its digest while they change. Such a module should carry a
 * package.json with a version, which is what a published package has anyway.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MAX_KEYWORD_CHARS } from '../exchange/search-attributes';
import { projectRoot } from '../paths';

/** The longest version recorded: it is a Keyword search attribute, bounded like the others. */
export const MAX_HANDLER_VERSION_CHARS = MAX_KEYWORD_CHARS;
/** Hex digits of the SHA-256 kept in a digest version: enough to tell builds apart, short enough to read. */
const DIGEST_HEX_CHARS = 12;

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * `version` within MAX_HANDLER_VERSION_CHARS, on one line: a longer one keeps its start and ends
 * with a digest of the whole, so two long versions that share a start still differ.
 */
export function boundedVersion(version: string): string {
  const flat = version.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_HANDLER_VERSION_CHARS) return flat;
  const tail = `~${sha256Hex(flat).slice(0, DIGEST_HEX_CHARS)}`;
  return `${flat.slice(0, MAX_HANDLER_VERSION_CHARS - tail.length)}${tail}`;
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
}

function readPackageJson(file: string): PackageJson | undefined {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as PackageJson) : undefined;
  } catch {
    return undefined; // unreadable or not JSON: it says nothing about a version
  }
}

/**
 * The package.json that owns `file`: the nearest one above it that names a package or a version.
 * One with neither (`{"type": "module"}` in a build folder, say) only marks how its folder loads,
 * so the search goes on above it. The service's own package.json (in `serviceRoot`) never owns a
 * module either: a module put inside the service's folder without a package.json of its own (the
 * image's /app/handlers/tools.js, under /app/package.json) would otherwise be recorded as the
 * service's version, the same for every build of it, and Worker Versioning could not tell two
 * builds apart.
 */
function owningPackage(file: string, serviceRoot: string): PackageJson | undefined {
  const servicePackage = path.join(serviceRoot, 'package.json');
  let dir = path.dirname(file);
  for (;;) {
    const candidate = path.join(dir, 'package.json');
    if (candidate !== servicePackage && existsSync(candidate)) {
      const pkg = readPackageJson(candidate);
      if (pkg && (typeof pkg.name === 'string' || typeof pkg.version === 'string')) return pkg;
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `name@version` of a package.json, or undefined when it has no version. */
function packageVersion(pkg: PackageJson | undefined): string | undefined {
  if (!pkg || typeof pkg.version !== 'string' || pkg.version.trim() === '') return undefined;
  return typeof pkg.name === 'string' && pkg.name !== '' ? `${pkg.name}@${pkg.version}` : pkg.version;
}

/**
 * The version of the module at `file` (an absolute path, as `require.resolve` gives it);
 * `serviceRoot` is the service's own folder, whose package.json is never the module's.
 */
export function moduleHandlerVersion(file: string, serviceRoot: string = projectRoot()): string {
  const fromPackage = packageVersion(owningPackage(file, serviceRoot));
  if (fromPackage) return boundedVersion(fromPackage);
  const digest = sha256Hex(readFileSync(file)).slice(0, DIGEST_HEX_CHARS);
  return boundedVersion(`${path.basename(file)}@sha256:${digest}`);
}

let serviceVersion: string | undefined;
/** The service's own package version (the root package.json's), read once. */
export function servicePackageVersion(): string {
  if (serviceVersion === undefined) {
    const { version } = readPackageJson(path.join(projectRoot(), 'package.json')) ?? {};
    serviceVersion = typeof version === 'string' && version !== '' ? version : 'unknown';
  }
  return serviceVersion;
}

/** The version of a handler set that ships with the service (a built-in one, or one a test builds in-process). */
export function builtInHandlerVersion(setName: string): string {
  return boundedVersion(`${setName}@${servicePackageVersion()}`);
}
