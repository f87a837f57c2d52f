/**
 * What a process's JavaScript keeps alive, read through its inspector (`--inspect`): the V8 heap
 * used after a full garbage collection, in its main thread and in its worker threads (the Temporal
 * worker runs its workflows in one), and, on demand, a heap snapshot of
 * every thread to open in Chrome's DevTools (Memory) and compare with another. A process's RSS
 * also counts what V8 has not handed back yet; this is what it could not free.
 */
import { createWriteStream } from 'node:fs';
import { connectInspector, type InspectorSession, type InspectorTarget } from '../scripts/inspector-session';

export interface HeapReading {
  /** Heap used after a full GC, main thread and worker threads together. */
  usedBytes: number;
  /** The same, per thread (`main`, `thread 1`, ...). */
  byThread: Record<string, number>;
  /** The heap V8 held just before that GC, used or not (its committed size), all threads. */
  heldBeforeGcBytes: number;
  /** Backing stores of ArrayBuffers and Buffers (outside the heap, malloc'd) after the GC, all threads. */
  backingStoreBytes: number;
}

type HeapUsage = { usedSize: number; totalSize: number; backingStorageSize?: number };

async function usageAroundGc(target: InspectorTarget): Promise<{ before: HeapUsage; after: HeapUsage }> {
  const before = await target.send<HeapUsage>('Runtime.getHeapUsage');
  await target.send('HeapProfiler.enable');
  await target.send('HeapProfiler.collectGarbage');
  return { before, after: await target.send<HeapUsage>('Runtime.getHeapUsage') };
}

export async function readHeap(inspectorUrl: string): Promise<HeapReading> {
  const session = await connectInspector(inspectorUrl);
  try {
    const reading: HeapReading = { usedBytes: 0, byThread: {}, heldBeforeGcBytes: 0, backingStoreBytes: 0 };
    const threads = session.threads().map((thread, i) => [`thread ${i + 1}`, thread] as const);
    for (const [name, target] of [['main', session] as const, ...threads]) {
      const { before, after } = await usageAroundGc(target);
      reading.byThread[name] = after.usedSize;
      reading.usedBytes += after.usedSize;
      reading.heldBeforeGcBytes += before.totalSize;
      reading.backingStoreBytes += after.backingStorageSize ?? 0;
    }
    return reading;
  } finally {
    session.close();
  }
}

/**
 * Writes a heap snapshot of every thread: the main thread's to `${base}.heapsnapshot`, worker
 * thread n's to `${base}-thread${n}.heapsnapshot`. Returns the files written.
 */
export async function writeHeapSnapshots(inspectorUrl: string, base: string): Promise<string[]> {
  const session = await connectInspector(inspectorUrl);
  try {
    const files = [`${base}.heapsnapshot`];
    await snapshotTo(session, session, files[0]!);
    for (const [i, thread] of session.threads().entries()) {
      files.push(`${base}-thread${i + 1}.heapsnapshot`);
      await snapshotTo(session, thread, files.at(-1)!);
    }
    return files;
  } finally {
    session.close();
  }
}

/**
 * Takes `target`'s snapshot into `file`. Its chunks come as events: the main thread's directly, a
 * worker thread's wrapped in the session's messages from workers. One snapshot at a time per
 * session, so every chunk is this one's.
 */
async function snapshotTo(session: InspectorSession, target: InspectorTarget, file: string): Promise<void> {
  const out = createWriteStream(file);
  const write = (params: Record<string, unknown>) => out.write(String(params.chunk));
  const offMain = session.on('HeapProfiler.addHeapSnapshotChunk', write);
  const offThreads = session.on('NodeWorker.receivedMessageFromWorker', (params) => {
    const message = JSON.parse(String(params.message)) as { method?: string; params?: Record<string, unknown> };
    if (message.method === 'HeapProfiler.addHeapSnapshotChunk') write(message.params ?? {});
  });
  try {
    await target.send('HeapProfiler.enable');
    await target.send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  } finally {
    offMain();
    offThreads();
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}
