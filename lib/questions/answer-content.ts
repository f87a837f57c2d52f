/**
 * Whether an elicitation answer is one its question's `requestedSchema` admits, whichever way it
 * came (the page, the answer API): the envelope as the SDK's `ElicitResultSchema` has it; for an
 * accept, content with only the schema's properties, every required one, each meeting its rules;
 * for a decline or a cancel, no content at all. Problems are at paths under the answer
 * (`action`, `content`, `content.amount`, `content.tags[1]`), or under `requestedSchema` when the
 * schema itself is outside the restricted form (the answer cannot be checked against it then).
 */
import { ElicitResultSchema } from '@modelcontextprotocol/core';
import { childPath } from '../protocol/json-budget';
import type { AnswerProblem } from './answer-problem';
import { checkFieldValue } from './field-value';
import { issueProblems } from './property-schema';
import type { ElicitAnswer } from './question';
import { readRequestedSchema } from './requested-schema';

const CONTENT = 'content';

/** What is wrong with `answer` as an answer to a question asking `requestedSchema`; empty when nothing is. */
export function checkAnswerContent(requestedSchema: unknown, answer: ElicitAnswer): AnswerProblem[] {
  const schema = readRequestedSchema(requestedSchema);
  if (schema.problems.length > 0) return schema.problems;
  const envelope = ElicitResultSchema.safeParse(answer);
  if (!envelope.success) return issueProblems(envelope.error, '');
  // As the SDK reads it: a null content is no content.
  const content = answer.content ?? undefined;
  if (answer.action !== 'accept') {
    return content === undefined ? [] : [{ path: CONTENT, message: `a ${answer.action} carries no content` }];
  }
  const given: Record<string, unknown> = content ?? {};
  const fields = new Map(schema.fields.map((field) => [field.name, field]));
  const problems: AnswerProblem[] = Object.keys(given)
    .filter((name) => !fields.has(name))
    .map((name) => ({ path: childPath(CONTENT, name), message: 'is not a field of this question' }));
  for (const field of schema.fields) {
    const path = childPath(CONTENT, field.name);
    if (!Object.hasOwn(given, field.name)) {
      if (field.required) problems.push({ path, message: 'is required' });
      continue;
    }
    problems.push(...checkFieldValue(field, given[field.name], path));
  }
  return problems;
}
