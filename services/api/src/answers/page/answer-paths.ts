/** The answer pages' URLs, named once for the renderers (and the routes that serve them). */

export const INBOX_PATH = '/answers';
export const SIGN_OUT_PATH = '/answers/sign-out';

/** A question's page, where its form also posts. */
export { questionPath } from '../../../../../lib/questions/question-path';
