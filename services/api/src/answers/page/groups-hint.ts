/**
 * Whether the page should tell a person that their sign-in brought no groups: a question they may
 * not answer names a group among its answerers (first, or by escalation), and they have none. A
 * sign-in yields no groups when the issuer was not asked for them (its groups scope missing from
 * ANSWER_OIDC_SCOPES, `groups` at Dex and Keycloak) or puts them in another claim than
 * ANSWER_GROUPS_CLAIM; "not addressed to you" alone would leave a member of the group with no clue.
 * It says only that some group is addressed, never which. Pure.
 */
import type { AnswererIdentity, QuestionView } from '../../../../../lib/questions/question';

export function signInLacksGroups(question: Pick<QuestionView, 'addressing'>, identity: AnswererIdentity): boolean {
  if (identity.groups.length > 0) return false;
  const { anyOf = [], eachOf = [], escalate } = question.addressing;
  return [...anyOf, ...eachOf, ...(escalate?.to ?? [])].some((answerer) => 'group' in answerer);
}
