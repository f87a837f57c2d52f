/**
 * The JavaScript agent frameworks' clients of the compatibility table (compatibility.ts) against
 * one service: Mastra's `MCPClient` and LangChain's `MultiServerMCPClient`, each called through the
 * tools it hands an agent. Each scenario asserts its cell; scenarios.ts says how each is run.
 */
import { STAND_INS } from './compatibility';
import { langchain, mastra } from './javascript-frameworks';
import { describeClient, useCompatibilityService } from './scenarios';

const service = useCompatibilityService();
const options = { timeoutMs: STAND_INS.clientTimeoutMs };

describeClient(service, 'mastra', mastra(options));
describeClient(service, 'langchain', langchain(options));
