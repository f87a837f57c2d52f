/**
 * The Python clients of the compatibility table (compatibility.ts) against one service, each run
 * as python/client_shim.py: the `mcp` SDK's `Client` as it connects by default (`mode="auto"`:
 * `server/discover`, then the 2026-07-28 wire) and in its legacy mode, FastMCP's client, and
 * LangChain's `MultiServerMCPClient` through its tools. A client whose module cannot be imported
 * is skipped, saying so (CI installs them all: .ci/run).
 */
import { STAND_INS } from './compatibility';
import { pythonClient, pythonModuleMissing } from './python-client';
import { describeClient, useCompatibilityService } from './scenarios';

const service = useCompatibilityService();
const maxRounds = STAND_INS.atLeg;
const mcpMissing = pythonModuleMissing('mcp');

describeClient(service, 'python-mcp', pythonClient({ client: 'mcp', mode: 'auto', maxRounds }), mcpMissing);
describeClient(service, 'python-mcp-legacy', pythonClient({ client: 'mcp', mode: 'legacy', maxRounds }), mcpMissing);
describeClient(
  service,
  'fastmcp',
  pythonClient({ client: 'fastmcp', mode: 'auto', maxRounds }),
  pythonModuleMissing('fastmcp'),
);
describeClient(
  service,
  'langchain-python',
  pythonClient({ client: 'langchain', mode: 'legacy', maxRounds }),
  pythonModuleMissing('langchain'),
);
