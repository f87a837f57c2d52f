/**
 * What a process's JavaScript keeps alive, read through its inspector (`--inspect`): the V8 heap
 * used after a full garbage collection, in its main thread and in its worker threads (the Temporal
 * worker runs its workflows in one), and, on demand, a heap snapshot of the main thread to open in
 * Chrome's DevTools (Memory) and compare with another. A process's RSS also counts what V8 has
 * not handed back yet; this is what it could not free.
 */
import { createWriteStream } from 'node:fs';
import { connectInspector, type InspectorTarget } from '../scripts/inspector-session';

export interface HeapReading {
  /** Heap used after a full GC, main thread and worker threads together. */
  usedBytes: number;
  /** The same, per thread (`main`, `thread 1`, ...). */
  byThread: Record<string, number>;
}

async function usedAfterGc(target: InspectorTarget): Promise<number> {
  await target.send('HeapProfiler.enable');
  await target.send('HeapProfiler.collectGarbage');
  const { usedSize } = await target.send<{ usedSize: number }>('Runtime.getHeapUsage');
  return usedSize;
}

export async function readHeap(inspectorUrl: string): Promise<HeapReading> {
  const session = await connectInspector(inspectorUrl);
  try {
    const byThread: Record<string, number> = { main: await usedAfterGc(session) };
    for (const [i, thread] of session.threads().entries()) byThread[`thread ${i + 1}`] = await usedAfterGc(thread);
    return { usedBytes: Object.values(byThread).reduce((a, b) => a + b, 0), byThread };
  } finally {
    session.close();
  }
}

/** Writes a heap snapshot of the main thread (after a full GC, which taking one implies) to `file`. */
export async function writeHeapSnapshot(inspectorUrl: string, file: string): Promise<void> {
  const session = await connectInspector(inspectorUrl);
  const out = createWriteStream(file);
  const off = session.on('HeapProfiler.addHeapSnapshotChunk', (params) => out.write(String(params.chunk)));
  try {
    await session.send('HeapProfiler.enable');
    await session.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    off();
    session.close();
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
