/** The handler time and attempt bounds a worker takes from its config, at their defaults, for tests that build a round activity by hand. */
import { defaultValueOf } from '../../lib/config';

export const defaultHandlerBounds = () => ({
  handlerTimeoutMs: defaultValueOf('HANDLER_TIMEOUT_MS'),
  localHandlerTimeoutMs: defaultValueOf('LOCAL_HANDLER_TIMEOUT_MS'),
  maxHandlerAttempts: defaultValueOf('MAX_HANDLER_ATTEMPTS'),
  maxQuestionWaitMs: defaultValueOf('MAX_QUESTION_WAIT_MS'),
});
