/**
 * The TypeScript clients of the compatibility table (compatibility.ts) against one service: the
 * official 2.x client pinned to 2026-07-28 and negotiating (a 2025-11-25 session), and the 1.x
 * SDK's client. Each scenario asserts its cell; scenarios.ts says how each is run.
 */
import { STAND_INS } from './compatibility';
import { describeClient, useCompatibilityService } from './scenarios';
import { typescript1, typescript2 } from './typescript-clients';

const service = useCompatibilityService();
const options = { timeoutMs: STAND_INS.clientTimeoutMs, maxRounds: STAND_INS.atLeg };

describeClient(service, 'typescript-2-pinned', typescript2(true, options));
describeClient(service, 'typescript-2-negotiating', typescript2(false, options));
describeClient(service, 'typescript-1', typescript1(options));
