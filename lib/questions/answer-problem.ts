/**
 * One thing wrong with an answer or with the schema it answers, named by its path (`content.amount`,
 * `requestedSchema.properties.amount.pattern`), so the page can show it next to its field and the
 * API can return it as it is. Types only.
 */
export interface AnswerProblem {
  path: string;
  message: string;
}
