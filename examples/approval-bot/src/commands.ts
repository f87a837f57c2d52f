/** The chat's commands: `approve <question-id> [note]` and `decline <question-id>`. */
export type Command =
  { action: 'accept'; questionId: string; note?: string } | { action: 'decline'; questionId: string };

export const USAGE = 'Usage: `approve <question-id> [note]` or `decline <question-id>`';

/** Question ids are opaque; anything longer or stranger than this is no id of the service's. */
const QUESTION_ID = /^[A-Za-z0-9_.:-]{1,128}$/;
const MAX_NOTE = 500;

/** The command `text` says, or undefined when it is none (the chat then shows the usage). */
export function parseCommand(text: string): Command | undefined {
  const [verb, questionId, ...rest] = text.trim().split(/\s+/);
  if (questionId === undefined || !QUESTION_ID.test(questionId)) return undefined;
  const note = rest.join(' ').slice(0, MAX_NOTE);
  switch (verb?.toLowerCase()) {
    case 'approve':
      return { action: 'accept', questionId, ...(note ? { note } : {}) };
    case 'decline':
      return rest.length === 0 ? { action: 'decline', questionId } : undefined;
    default:
      return undefined;
  }
}
