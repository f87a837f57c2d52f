/**
 * The Go client of the compatibility table (compatibility.ts) against one service: the official
 * Go SDK's `mcp.Client` with its defaults, run as go/main.go. Skipped, saying why, when `go build`
 * cannot build it (no Go, or its modules out of reach; CI fetches them: .ci/run).
 */
import { goClient, goClientProgram } from './go-client';
import { describeClient, useCompatibilityService } from './scenarios';

const service = useCompatibilityService();
const program = goClientProgram();
afterAll(() => {
  if ('remove' in program) program.remove();
});

describeClient(service, 'go', goClient(program), 'skipped' in program ? program.skipped : undefined);
