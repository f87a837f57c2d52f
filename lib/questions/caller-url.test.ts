import { answerer, elicitFrom } from '@durable-mcp/handlers';
import { questionIdOf } from './addressing';
import { callerPageOf, callerQuestionKeys, callerUrlRequests, takesUrlElicitation, urlConsentOf } from './caller-url';
import { waitingMessage } from './waiting-message';

const schema = { type: 'object', properties: { code: { type: 'string' } } } as const;
const ask = {
  mine: elicitFrom(
    { anyOf: [answerer.caller()] },
    { message: 'Type the code from your phone', requestedSchema: schema },
  ),
  boss: elicitFrom({ anyOf: [answerer.group('managers')] }, { message: 'Approve?', requestedSchema: schema }),
};
const pageUrl = (id: string) => `https://answers.example.com/answers/q/${id}`;

describe('questions addressed to the caller, sent in URL mode', () => {
  it('knows a client that takes URL elicitations', () => {
    expect(takesUrlElicitation({ elicitation: { url: {} } })).toBe(true);
    expect(takesUrlElicitation({ elicitation: { form: {}, url: {} } })).toBe(true);
    expect(takesUrlElicitation({ elicitation: {} })).toBe(false);
    expect(takesUrlElicitation({})).toBe(false);
  });

  it("points the caller's questions, and only those, at their pages", () => {
    expect(callerQuestionKeys(ask)).toEqual(['mine']);
    const requests = callerUrlRequests('ex-1', 2, ask, pageUrl);
    const id = questionIdOf('ex-1', 2, 'mine', ['mine', 'boss']);
    expect(requests).toEqual({
      mine: {
        method: 'elicitation/create',
        params: { mode: 'url', message: 'Type the code from your phone', url: pageUrl(id) },
      },
    });
    expect(callerUrlRequests('ex-1', 2, ask, pageUrl, true).mine!.params.elicitationId).toBe(id);
  });

  it("takes accept as consent, decline and cancel as the caller's answer", () => {
    expect(urlConsentOf(ask, { mine: { action: 'accept' } })).toEqual({ kind: 'consent', refusals: [] });
    expect(urlConsentOf(ask, { mine: { action: 'decline' }, extra: { action: 'accept' } })).toEqual({
      kind: 'consent',
      refusals: [{ key: 'mine', action: 'decline' }],
    });
  });

  it("refuses a reply to someone else's question, or one with content", () => {
    expect(urlConsentOf(ask, { boss: { action: 'accept' } })).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/inputResponses\.boss: this question is addressed to someone else/),
    });
    expect(urlConsentOf(ask, { mine: { action: 'accept', content: { code: '1' } } })).toMatchObject({
      kind: 'invalid',
      reason: expect.stringMatching(/inputResponses\.mine/),
    });
  });

  it("names the caller's question's page in the waiting message, when the page is on", () => {
    const page = callerPageOf('ex-1', 2, ask, pageUrl);
    expect(page).toBe(pageUrl(questionIdOf('ex-1', 2, 'mine', ['mine', 'boss'])));
    expect(callerPageOf('ex-1', 2, ask, undefined)).toBeUndefined();
    expect(callerPageOf('ex-1', 2, { boss: ask.boss }, pageUrl)).toBeUndefined();
    expect(waitingMessage(ask, undefined, page)).toBe(
      `Waiting for an answer from you, at ${page}; a member of managers`,
    );
    expect(waitingMessage(ask, undefined)).toBe(
      'Waiting for an answer from you, on the answer page; a member of managers',
    );
  });
});
