/**
 * The one data converter of every Temporal client and worker that touches the service's
 * workflows (the API, the worker, the tests' and scripts' clients): the payload codec over the
 * SDK's JSON payloads, and the failure converter that keeps failure messages encoded. The
 * workflow bundle is built with the same failure converter (`FAILURE_CONVERTER_PATH`).
 */
import type { DataConverter } from '@temporalio/common';
import type { PayloadCodecConfig } from './payload-codec';
import { createPayloadCodec } from './payload-codec';

/** What `bundleWorkflowCode` and the worker load as `failureConverterPath`. */
export const FAILURE_CONVERTER_PATH = require.resolve('./failure-converter');

export function serviceDataConverter(codec: PayloadCodecConfig): DataConverter {
  return { payloadCodecs: [createPayloadCodec(codec)], failureConverterPath: FAILURE_CONVERTER_PATH };
}
