/**
 * `npm run bench:open-waits -- --heap`: beside each checkpoint's RSS, what each of the service's
 * processes keeps in its V8 heap, read through its inspector (bench/heap-reading.ts): the heap V8
 * held when the RSS was read, then, after a full garbage collection in every thread, the RSS again,
 * the heap still used (per thread) and the buffers outside the heap. Retained objects grow the
 * heap used; garbage V8 has not collected yet grows the heap held and the RSS, and a full GC gives
 * it back; memory outside V8 (malloc, native code) grows the RSS after GC alone. With
 * `--heap-snapshots DIR`, also a heap snapshot of every thread of each process at each checkpoint
 * (`api-1000.heapsnapshot`, `worker-1000-thread1.heapsnapshot`, ...), to compare in Chrome's
 * DevTools (Memory). A snapshot costs its process memory of its own that the process does not
 * give back at once, so RSS is best read from a run without snapshots.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { note } from './bench-run';
import { readHeap, writeHeapSnapshots, type HeapReading } from './heap-reading';
import { table } from './report';
import type { Role } from './target-types';

export interface HeapCheckpoint {
  open: number;
  /** RSS per role, as the checkpoint's memory reading (before the heap readings' full GCs). */
  rssBytes: Partial<Record<Role, number>>;
  /** RSS per role right after those full GCs. */
  rssAfterGcBytes: Partial<Record<Role, number>>;
  heap: Partial<Record<Role, HeapReading>>;
}

/** Reads the heap of every process that has an inspector (a full GC in each of its threads). */
export async function readHeaps(
  inspectors: Partial<Record<Role, string>>,
): Promise<Partial<Record<Role, HeapReading>>> {
  const heap: Partial<Record<Role, HeapReading>> = {};
  for (const [role, url] of Object.entries(inspectors) as Array<[Role, string]>) heap[role] = await readHeap(url);
  return heap;
}

/** Writes a snapshot of every thread of every process that has an inspector into `dir`. */
export async function writeSnapshots(inspectors: Partial<Record<Role, string>>, open: number, dir: string) {
  mkdirSync(dir, { recursive: true });
  for (const [role, url] of Object.entries(inspectors) as Array<[Role, string]>) {
    const files = await writeHeapSnapshots(url, path.join(dir, `${role}-${open}`));
    note(`heap snapshots: ${files.map((f) => path.basename(f)).join(', ')}`);
  }
}

const MB = 1024 * 1024;
const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : (bytes / MB).toFixed(1));

export function renderHeaps(rows: readonly HeapCheckpoint[]): string {
  const roles = (['api', 'worker'] as const).filter((role) => rows.some((r) => r.heap[role]));
  const threads = (reading: HeapReading | undefined) =>
    Object.entries(reading?.byThread ?? {})
      .map(([thread, bytes]) => `${thread} ${mb(bytes)}`)
      .join(', ');
  const lines = [
    'heap per process (MB): RSS and the heap V8 held before a full GC; RSS, heap used and buffers after it',
  ];
  lines.push(
    ...table(
      [
        'open',
        ...roles.flatMap((role) => [`${role} RSS`, 'held', 'RSS after GC', 'used', 'buffers', 'used by thread']),
      ],
      rows.map((r) => [
        String(r.open),
        ...roles.flatMap((role) => {
          const reading = r.heap[role];
          return [
            mb(r.rssBytes[role]),
            mb(reading?.heldBeforeGcBytes),
            mb(r.rssAfterGcBytes[role]),
            mb(reading?.usedBytes),
            mb(reading?.backingStoreBytes),
            threads(reading),
          ];
        }),
      ]),
    ),
  );
  return `${lines.join('\n')}\n`;
}
