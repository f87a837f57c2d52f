/**
 * What the exchanges of one scenario left in Temporal: how many history events an exchange's
 * workflow took (median over the completed ones), and, for one of them, the count of each event
 * type (from the attributes each event carries), which is where a round's cost shows. It reads
 * event types and counts only, never a payload, so its client needs no codec: the service's
 * histories are encrypted, the baselines' are not.
 */
import { Client, Connection } from '@temporalio/client';
import { round } from './stats';

export interface HistoryStats {
  /** Completed exchange workflows found for the scenario. */
  workflows: number;
  eventsMedian: number | null;
  /** One exchange's events by type (`WorkflowTaskCompleted: 3`, ...). */
  sample?: { workflowId: string; total: number; byType: Record<string, number> };
}

export async function historyStats(address: string, taskQueue: string, since: Date): Promise<HistoryStats> {
  const connection = await Connection.connect({ address });
  try {
    const client = new Client({ connection });
    const lengths: number[] = [];
    let sampleId: string | undefined;
    const query = `TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Completed' AND StartTime >= '${since.toISOString()}'`;
    for await (const info of client.workflow.list({ query })) {
      lengths.push(info.historyLength);
      sampleId ??= info.workflowId;
    }
    lengths.sort((a, b) => a - b);
    const stats: HistoryStats = {
      workflows: lengths.length,
      eventsMedian: lengths.length ? round(lengths[Math.floor((lengths.length - 1) / 2)]!, 0) : null,
    };
    if (sampleId) {
      const history = await client.workflow.getHandle(sampleId).fetchHistory();
      const byType: Record<string, number> = {};
      for (const event of history.events ?? []) {
        const key = Object.keys(event).find(
          (k) => k.endsWith('EventAttributes') && (event as Record<string, unknown>)[k] != null,
        );
        const type = key ? key[0]!.toUpperCase() + key.slice(1).replace(/EventAttributes$/, '') : 'Unknown';
        byType[type] = (byType[type] ?? 0) + 1;
      }
      stats.sample = { workflowId: sampleId, total: history.events?.length ?? 0, byType };
    }
    return stats;
  } finally {
    await connection.close();
  }
}
