/**
 * The soak's pure arithmetic (bench/soak-*.ts): the accepted-versus-applied reconciliation and how
 * it is printed, refs resolved to exchanges, memory summarized per restart generation, the seeded
 * choices and the mix option.
 */
import { reconcile, resolveKey, whyStillRunning } from '../../bench/soak-ledger';
import { summarizeMemory } from '../../bench/soak-memory';
import { parseMix } from '../../bench/soak-options';
import { jittered, pickWeighted, seeded, streamOf } from '../../bench/soak-random';
import { answerLines } from '../../bench/soak-report';

describe('accepted against applied', () => {
  it('is equal when every acknowledged answer was applied and nothing else was', () => {
    const result = reconcile({ accepted: ['a#1', 'a#2', 'b#1'], sent: ['a#1'], applied: ['a#1', 'a#2', 'b#1'] });
    expect(result).toEqual({
      accepted: 3,
      applied: 3,
      inDoubt: 0,
      inDoubtApplied: 0,
      lost: [],
      unexplained: [],
      equal: true,
    });
    expect(answerLines(result).filter((line) => line.includes('MISMATCH'))).toEqual([]);
  });

  it('counts an answer sent but never acknowledged as in doubt, applied or not, and not against equality', () => {
    const result = reconcile({ accepted: ['a#1'], sent: ['a#1', 'b#1', 'c#1'], applied: ['a#1', 'b#1'] });
    expect(result).toMatchObject({ accepted: 1, applied: 1, inDoubt: 2, inDoubtApplied: 1, equal: true });
  });

  it('names an acknowledged answer no round applied, and a round that applied answers nobody sent', () => {
    const result = reconcile({ accepted: ['a#1', 'b#2'], sent: [], applied: ['a#1', 'z#3'] });
    expect(result).toMatchObject({ accepted: 2, applied: 2, lost: ['b#2'], unexplained: ['z#3'], equal: false });
    const lines = answerLines(result);
    expect(lines[0]).toContain('MISMATCH');
    expect(lines.filter((line) => line.startsWith('MISMATCH:'))).toEqual([
      'MISMATCH: 1 accepted answer(s) never applied: b#2',
      'MISMATCH: 1 round(s) applied answers no client sent: z#3',
    ]);
  });

  it('resolves a ref to its exchange: an exchange id as it is, a task or session as Postgres maps it', () => {
    const refs = new Map([['task:t-1', 'e-7']]);
    expect([
      resolveKey('exchange:e-1#2', refs),
      resolveKey('task:t-1#3', refs),
      resolveKey('legacy:s-9#1', refs),
    ]).toEqual(['e-1#2', 'e-7#3', 'legacy:s-9#1']);
  });

  it('says why an exchange still runs from its client and its record', () => {
    const base = { known: true, inFlight: false, rounds: 2, lastOutcome: 'ask', waitingQuestions: 1 };
    expect(whyStillRunning({ ...base, note: 'gave up: no reply' })).toBe(
      'its client gave up: no reply; round 2 recorded (ask), a question waiting',
    );
    expect(whyStillRunning({ ...base, known: false, rounds: 0 })).toMatch(/^no client holds it .*; no round recorded$/);
  });
});

describe('memory over time', () => {
  it('summarizes each process per generation (a new pid after a kill), in the order processes appear', () => {
    const MB = 1048576;
    const rows = summarizeMemory([
      { process: 'worker', pid: 10, atS: 0, bytes: 100 * MB },
      { process: 'api0', pid: 20, atS: 0, bytes: 50 * MB },
      { process: 'worker', pid: 10, atS: 5, bytes: 300 * MB },
      { process: 'worker', pid: 10, atS: 10, bytes: 200 * MB },
      { process: 'worker', pid: 11, atS: 20, bytes: 120 * MB },
    ]);
    expect(rows.map((r) => [r.process, r.generation, r.samples, r.fromS, r.toS])).toEqual([
      ['worker', 1, 3, 0, 10],
      ['worker', 2, 1, 20, 20],
      ['api0', 1, 1, 0, 0],
    ]);
    expect(rows[0]).toMatchObject({
      startBytes: 100 * MB,
      medianBytes: 200 * MB,
      maxBytes: 300 * MB,
      endBytes: 200 * MB,
    });
  });
});

describe('seeded choices', () => {
  it('draws the same sequence from the same seed and stream, another from another stream', () => {
    const draw = (random: { next(): number }) => Array.from({ length: 5 }, () => random.next());
    expect(draw(streamOf(7, 'kills'))).toEqual(draw(streamOf(7, 'kills')));
    expect(draw(streamOf(7, 'kills'))).not.toEqual(draw(streamOf(7, 'kinds')));
  });

  it('keeps jittered waits within half and one and a half times the mean', () => {
    const random = seeded(3);
    const waits = Array.from({ length: 1000 }, () => jittered(random, 60_000));
    expect(Math.min(...waits)).toBeGreaterThanOrEqual(30_000);
    expect(Math.max(...waits)).toBeLessThan(90_000);
  });

  it('picks kinds in proportion to their weights, never one weighted 0', () => {
    const random = seeded(5);
    const counts: Record<string, number> = { modern: 0, legacy: 0, task: 0 };
    for (let i = 0; i < 4000; i++) counts[pickWeighted(random, { modern: 3, legacy: 1, task: 0 })]! += 1;
    expect(counts.task).toBe(0);
    expect(counts.modern! / counts.legacy!).toBeGreaterThan(2.5);
    expect(counts.modern! / counts.legacy!).toBeLessThan(3.5);
  });

  it('reads a mix, refusing unknown kinds, repeats and all zeros', () => {
    expect(parseMix('modern=1,task=2')).toEqual({ modern: 1, legacy: 0, task: 2, question: 0 });
    expect(() => parseMix('modern=1,robots=2')).toThrow(/robots=2/);
    expect(() => parseMix('task=1,task=2')).toThrow(/twice/);
    expect(() => parseMix('task=0')).toThrow(/above 0/);
  });
});
