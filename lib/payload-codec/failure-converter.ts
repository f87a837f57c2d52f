/**
 * The failure converter of every Temporal client and worker of the service, and of its workflow
 * bundle: a failure's message and stack trace travel as an encoded attribute, a payload the codec
 * encrypts, instead of in clear (the history shows "Encoded failure"). Handler exceptions, errors
 * quoting a value Postgres refused and stack traces stay out of sight like every other payload.
 * Decoding reads both forms, so failures recorded before this was on read as before.
 *
 * Loaded by path (`failureConverterPath`) in the worker, the clients and the workflow sandbox, so
 * it imports nothing but the SDK.
 */
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
