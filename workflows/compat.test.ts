import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { COMPAT_GATES, cancelledByOf, endingKindOf, roundKindOf } from './compat';

describe('compatibility gates', () => {
  it('lists every patched(...) of the workflow code, and only here are they called', () => {
    const patches = new Set(COMPAT_GATES.filter((gate) => gate.kind === 'patch').map((gate) => gate.gate));
    const sources = readdirSync(__dirname).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'));
    const callers = sources.filter((file) => /\bpatched\(/.test(readFileSync(path.join(__dirname, file), 'utf8')));
    expect(callers).toEqual(['compat.ts']);
    const called = [...readFileSync(path.join(__dirname, 'compat.ts'), 'utf8').matchAll(/patched\(([A-Z_]+)\)/g)];
    expect(called.length).toBe(patches.size);
  });

  it('says for every gate what it protects and when it can go', () => {
    for (const gate of COMPAT_GATES) {
      expect(gate.protects.length).toBeGreaterThan(20);
      expect(gate.removableWhen.length).toBeGreaterThan(10);
    }
  });

  it('reads the older shapes as they ran', () => {
    expect(roundKindOf({})).toBe('regular');
    expect(endingKindOf({})).toBe('regular');
    expect(roundKindOf({ roundActivity: 'local' })).toBe('local');
    expect(endingKindOf({ roundActivity: 'regular' })).toBe('local');
    expect(cancelledByOf(undefined)).toBe('client');
    expect(cancelledByOf('operator')).toBe('operator');
  });
});
