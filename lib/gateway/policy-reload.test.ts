import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from '../log';
import { parseUpstreamFile } from '../upstreams/upstream-declaration';
import { createPolicyBook } from './policy-book';
import { startPolicyReload } from './policy-reload';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
process.env.RELOAD_TEST_PDP_SECRET = SECRET;

const BIG = { name: 'big sums', tools: ['add'], when: [{ argument: 'a', op: 'gt', value: 100 }], deny: 'Too big.' };
const NO_DELETES = { name: 'no deletes', tools: ['delete_*'], deny: 'Not here.' };
const PDP = {
  name: 'pdp',
  tools: ['pay'],
  decide: { url: 'https://pdp.internal/evaluation', secretEnv: 'RELOAD_TEST_PDP_SECRET' },
};

/** The default rounds' bounds: HANDLER_TIMEOUT_MS and LOCAL_HANDLER_TIMEOUT_MS. */
const BOUNDS = { handlerTimeoutMs: 90_000, localHandlerTimeoutMs: 5_000 };

const started: Array<{ stop(): void }> = [];
afterEach(() => started.splice(0).forEach((reload) => reload.stop()));

interface Line {
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

/** A reload of its own file, its lines kept, checked by hand (`check()`), never by its timer. */
function reloading(policies: unknown[], settings: Record<string, unknown> = {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'policy-reload-')), 'upstreams.json');
  const write = (next: unknown[], more: Record<string, unknown> = settings) =>
    writeFileSync(
      file,
      JSON.stringify({ upstreams: [{ name: 'shop', url: 'http://shop/mcp', ...more, policies: next }] }),
    );
  write(policies);
  const declared = parseUpstreamFile(
    JSON.stringify({ upstreams: [{ name: 'shop', url: 'http://shop/mcp', policies }] }),
    process.env,
    'test',
  );
  const lines: Line[] = [];
  const at = (level: Line['level']) => (fields: Record<string, unknown>, message: string) =>
    void lines.push({ level, fields, message });
  const log = { info: at('info'), warn: at('warn'), error: at('error') } as unknown as Logger;
  const catalog = { policies: createPolicyBook(declared), policiesChanged: jest.fn() };
  const reload = startPolicyReload(file, declared, catalog, log, 3_600_000, BOUNDS);
  started.push(reload);
  return { write, lines, catalog, reload, file };
}

const names = (policies: readonly { name: string }[]) => policies.map((policy) => policy.name);

describe("a reload of UPSTREAMS_FILE's policies", () => {
  it('applies a changed policy and logs what it was and what it is, never a secret', async () => {
    const { write, lines, catalog, reload } = reloading([BIG, PDP]);
    write([{ ...BIG, when: [{ argument: 'a', op: 'gt', value: 1000 }] }, PDP]);
    await reload.check();
    expect(catalog.policiesChanged).toHaveBeenCalledTimes(1);
    expect(catalog.policies.of('shop')[0]).toMatchObject({ when: [{ value: 1000 }] });
    expect(lines).toEqual([
      {
        level: 'info',
        message: 'upstream policies changed',
        fields: {
          upstream: 'shop',
          before: ['big sums', 'pdp'],
          after: ['big sums', 'pdp'],
          added: [],
          removed: [],
          changed: [
            {
              name: 'big sums',
              before: expect.objectContaining({ when: [{ argument: 'a', op: 'gt', value: 100 }] }),
              after: expect.objectContaining({ when: [{ argument: 'a', op: 'gt', value: 1000 }] }),
            },
          ],
          reordered: false,
        },
      },
    ]);
    // Read the same again: nothing to say, nothing to apply.
    await reload.check();
    expect(lines).toHaveLength(1);
    expect(catalog.policiesChanged).toHaveBeenCalledTimes(1);
  });

  it('logs the policies added (as declared), removed and reordered', async () => {
    const { write, lines, catalog, reload } = reloading([BIG, NO_DELETES]);
    write([PDP, NO_DELETES]);
    await reload.check();
    expect(names(catalog.policies.of('shop'))).toEqual(['pdp', 'no deletes']);
    expect(lines[0]!.fields).toMatchObject({
      added: [{ name: 'pdp', tools: ['pay'], decide: expect.objectContaining({ url: PDP.decide.url }) }],
      removed: ['big sums'],
      changed: [],
      reordered: false,
    });
    expect(JSON.stringify(lines)).not.toContain(SECRET);

    write([NO_DELETES, PDP]);
    await reload.check();
    expect(lines[1]!.fields).toMatchObject({ added: [], removed: [], changed: [], reordered: true });
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  it('tells apart policies declared under one name, each compared with its own', async () => {
    const { write, lines, reload } = reloading([BIG, { ...BIG, tools: ['sub'] }]);
    write([BIG, { ...BIG, tools: ['mul'] }]);
    await reload.check();
    expect(lines[0]!.fields).toMatchObject({
      changed: [{ name: 'big sums (2)', before: { tools: ['sub'] }, after: { tools: ['mul'] } }],
    });
  });

  it('keeps the policies in force when the file turns invalid, and says why at error', async () => {
    const { write, lines, catalog, reload } = reloading([BIG]);
    write([{ ...BIG, when: [{ argument: 'a', op: 'gt', value: 'many' }] }]);
    await reload.check();
    expect(lines).toEqual([
      expect.objectContaining({ level: 'error', message: 'UPSTREAMS_FILE is invalid; the policies in force are kept' }),
    ]);
    expect(catalog.policiesChanged).not.toHaveBeenCalled();
    expect(catalog.policies.of('shop')[0]).toMatchObject({ when: [{ value: 100 }] });
  });

  it("keeps the policies in force when a new decision point's wait would outlast the round", async () => {
    const { write, lines, catalog, reload } = reloading([BIG]);
    // The default calls (76.25 s) and a 20 s decision point before them are over the round's 90 s.
    write([BIG, { ...PDP, decide: { ...PDP.decide, timeoutMs: 20_000 } }]);
    await reload.check();
    expect(lines).toEqual([
      {
        level: 'error',
        message: 'UPSTREAMS_FILE is invalid; the policies in force are kept',
        fields: expect.objectContaining({
          reason: expect.stringMatching(/^upstream shop: a round may take 96250 ms .*decide\.timeoutMs/),
        }),
      },
    ]);
    expect(catalog.policiesChanged).not.toHaveBeenCalled();
    expect(names(catalog.policies.of('shop'))).toEqual(['big sums']);
    // Within the bound, the same policy is applied.
    write([BIG, { ...PDP, decide: { ...PDP.decide, timeoutMs: 10_000 } }]);
    await reload.check();
    expect(names(catalog.policies.of('shop'))).toEqual(['big sums', 'pdp']);
  });

  it('says a changed connection setting applies after a restart, and applies only the policies', async () => {
    const { write, lines, catalog, reload } = reloading([BIG]);
    write([NO_DELETES], { callTimeoutMs: 5_000 });
    await reload.check();
    expect(lines.map((line) => `${line.level}: ${line.message}`)).toEqual([
      "warn: an upstream's connection settings changed: they apply after a restart",
      'info: upstream policies changed',
    ]);
    expect(names(catalog.policies.of('shop'))).toEqual(['no deletes']);
  });
});
