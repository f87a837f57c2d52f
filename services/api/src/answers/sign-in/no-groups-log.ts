/**
 * The line a sign-in that brought no groups leaves in the log: a question addressed to a group
 * admits nobody signed in so, and without this line the only sign of it is a person told "not
 * addressed to you". It names what decides the groups: the claim read (ANSWER_GROUPS_CLAIM) and the
 * scopes asked for (ANSWER_OIDC_SCOPES; Dex and Keycloak put groups in tokens only when asked for
 * the `groups` scope). `info`, since many people rightly belong to no group.
 */
import type { Logger } from '../../../../../lib/log';
import type { AnswererIdentity } from '../../../../../lib/questions/question';

export function logSignInWithoutGroups(
  log: Logger,
  identity: Pick<AnswererIdentity, 'id' | 'groups'>,
  reading: { groupsClaim: string; scopes: readonly string[] },
): void {
  if (identity.groups.length > 0) return;
  log.info(
    { answerer: identity.id, groupsClaim: reading.groupsClaim, scopes: reading.scopes.join(' ') },
    `answer sign-in brought no groups: neither the ID token nor userinfo has a "${reading.groupsClaim}" claim naming any, so no question addressed to a group admits this person; if they belong to one, check that ANSWER_OIDC_SCOPES asks for the issuer's groups scope and ANSWER_GROUPS_CLAIM names the claim it puts them in`,
  );
}
