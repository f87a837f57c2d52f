// Pins the version each kind of handler set is recorded under: a built-in set by the service's own
// package version, a module by the package.json that owns it, else by a digest of its file, and
// every one within the Keyword bound of the search attribute it goes into.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { moduleFolder } from '../../test/support/handler-modules';
import { projectRoot } from '../paths';
import {
  boundedVersion,
  builtInHandlerVersion,
  MAX_HANDLER_VERSION_CHARS,
  moduleHandlerVersion,
  servicePackageVersion,
} from './handler-version';

const folder = moduleFolder();
afterAll(() => folder.remove());

const SOURCE = 'module.exports = { name: "refunds", tools: [] };\n';
const digestOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

describe('the version of a built-in handler set', () => {
  it("is its name at the service's own package version", () => {
    const { version } = JSON.parse(readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(servicePackageVersion()).toBe(version);
    expect(builtInHandlerVersion('demo')).toBe(`demo@${version}`);
  });
});

describe('the version of a handler module', () => {
  it('is name@version of the package.json that owns its file, however deep the file', () => {
    folder.write('pkg/package.json', JSON.stringify({ name: 'acme-tools', version: '1.2.0' }));
    const file = folder.write('pkg/dist/lib/tools.js', SOURCE);
    expect(moduleHandlerVersion(file)).toBe('acme-tools@1.2.0');
  });

  it('looks past a package.json that only says how its folder loads', () => {
    folder.write('scoped/package.json', JSON.stringify({ name: '@acme/refund-tools', version: '2.0.0-rc.1' }));
    folder.write('scoped/dist/package.json', JSON.stringify({ type: 'commonjs' }));
    const file = folder.write('scoped/dist/index.js', SOURCE);
    expect(moduleHandlerVersion(file)).toBe('@acme/refund-tools@2.0.0-rc.1');
  });

  it("is the file's name and a digest of its bytes when no package.json owns it", () => {
    const file = folder.write('loose/tools.js', SOURCE);
    expect(moduleHandlerVersion(file)).toBe(`tools.js@sha256:${digestOf(SOURCE)}`);
  });

  it("is a digest, never the service's own version, for a module in the service's folder without a package.json", () => {
    // The image's layout: the service in /app (its package.json), a user's build in /app/handlers.
    const serviceRoot = path.dirname(
      folder.write('service/package.json', JSON.stringify({ name: 'durable-mcp', version: '0.1.0' })),
    );
    const file = folder.write('service/handlers/tools.js', SOURCE);
    expect(moduleHandlerVersion(file, serviceRoot)).toBe(`tools.js@sha256:${digestOf(SOURCE)}`);
    // With its own package.json beside it, that one's version.
    folder.write('service/handlers/package.json', JSON.stringify({ name: 'acme-tools', version: '1.3.0' }));
    expect(moduleHandlerVersion(file, serviceRoot)).toBe('acme-tools@1.3.0');
  });

  it('is a digest when the package that owns it has no version, and the digest follows the code', () => {
    folder.write('app/package.json', JSON.stringify({ name: 'my-app', private: true }));
    const file = folder.write('app/tools.ts', SOURCE);
    const before = moduleHandlerVersion(file);
    expect(before).toBe(`tools.ts@sha256:${digestOf(SOURCE)}`);
    folder.write('app/tools.ts', SOURCE.replace('refunds', 'refunds-v2'));
    const after = moduleHandlerVersion(file);
    expect(after).toMatch(/^tools\.ts@sha256:[0-9a-f]{12}$/);
    expect(after).not.toBe(before);
  });
});

describe('a version', () => {
  it('stays within the Keyword bound, and two long ones that share their start still differ', () => {
    const long = `@acme/${'x'.repeat(150)}@1.0.0`;
    const bounded = boundedVersion(long);
    expect(bounded).toHaveLength(MAX_HANDLER_VERSION_CHARS);
    expect(bounded.startsWith('@acme/xxx')).toBe(true);
    expect(boundedVersion(long.replace('1.0.0', '1.0.1'))).not.toBe(bounded);
    expect(boundedVersion('acme-tools@1.2.0')).toBe('acme-tools@1.2.0');
  });

  it('is one line', () => {
    expect(boundedVersion(' acme\ntools@1.2.0 ')).toBe('acme tools@1.2.0');
  });

  it('of a module with a very long package name is bounded too', () => {
    folder.write('long/package.json', JSON.stringify({ name: 'n'.repeat(214), version: '1.0.0' }));
    const file = folder.write('long/index.js', SOURCE);
    expect(moduleHandlerVersion(file).length).toBeLessThanOrEqual(MAX_HANDLER_VERSION_CHARS);
  });
});
