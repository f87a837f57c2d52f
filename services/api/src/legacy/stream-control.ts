/**
 * Keys of a stream's control entries (not JSON-RPC messages) in the event log: the priming event
 * that opens a resumable stream, and a handler's request to close the stream (SEP-1699).
 */
export const PRIMING_KEY = 'prime';
export const CLOSE_STREAM_KEY = 'close-stream:';
