/** The activities the worker registers: one round of an exchange, and the record of an ending. */
import { createRecordOutcome } from './record-outcome';
import { createRunRound, type RoundDeps } from './run-round';

/** The worker's activities, closed over their dependencies (built once in the worker's main). */
export function createActivities(deps: RoundDeps) {
  return {
    runRound: createRunRound(deps),
    recordOutcome: createRecordOutcome(deps),
  };
}
