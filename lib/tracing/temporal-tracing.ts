/**
 * Temporal's OpenTelemetry interceptors (@temporalio/interceptors-opentelemetry), wired for the
 * service when tracing is on. The API's client: `StartWorkflow` and `SignalWorkflow` spans, children
 * of the leg's span, whose context travels in the workflow's and the signal's headers. The worker:
 * the workflow interceptors module (bundled with the workflows: `RunWorkflow`, `HandleSignal`,
 * `StartActivity` spans, made deterministically inside the sandbox and exported through the
 * `exporter` sink, never during replay) and the activity interceptors (`RunActivity`), which the
 * SDK also applies to local activities, so a round is traced however it runs.
 */
import type { WorkflowClientInterceptor } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { WorkerOptions } from '@temporalio/worker';
import type { Tracing } from './tracer-provider';

/** The module the workflow bundle must include for workflow spans (WorkerOptions.interceptors.workflowModules). */
export const TRACING_WORKFLOW_INTERCEPTORS_MODULE =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** The workflow client interceptors of the API's Temporal client. */
export function tracingClientInterceptors(tracing: Tracing): { workflow: WorkflowClientInterceptor[] } {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] };
}

/** The worker's interceptors and the sink its workflow spans leave the sandbox through. */
export function tracingWorkerOptions(
  tracing: Tracing,
): Required<Pick<WorkerOptions, 'interceptors' | 'sinks'>> & { interceptors: { workflowModules: string[] } } {
  return {
    interceptors: {
      workflowModules: [TRACING_WORKFLOW_INTERCEPTORS_MODULE],
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer }),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
