import { createRecordOutcome } from './record-outcome';
import { createRunRound, type RoundDeps } from './run-round';

/** The worker's activities, closed over their dependencies (built once in the worker's main). */
export function createActivities(deps: RoundDeps) {
  return {
    runRound: createRunRound(deps),
    recordOutcome: createRecordOutcome(deps),
  };
}
