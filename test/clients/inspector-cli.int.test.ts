/**
 * The MCP Inspector's CLI in the compatibility table (compatibility.ts) against one service: as it
 * runs by default (a 2025-11-25 session per call) and with `--protocol-era auto` (the 2026-07-28
 * wire), one process per call (inspector-cli.ts). Skipped, saying why, when it is not installed.
 */
import { inspectorCli, inspectorCliMissing } from './inspector-cli';
import { describeClient, useCompatibilityService } from './scenarios';

const service = useCompatibilityService();
const missing = inspectorCliMissing();

describeClient(service, 'inspector-cli', inspectorCli(), missing);
describeClient(service, 'inspector-cli-auto', inspectorCli({ protocolEra: 'auto' }), missing);
