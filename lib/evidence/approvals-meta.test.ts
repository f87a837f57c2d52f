import { APPROVALS_META_KEY, withApprovals } from './approvals-meta';

const by = (subject: string, evidence?: string) => ({
  principal: { id: `https://id.example|${subject}`, subject },
  at: 1,
  via: 'page' as const,
  action: 'accept' as const,
  ...(evidence !== undefined ? { evidence } : {}),
});

describe('the approvals of a final result', () => {
  it("are added to its _meta beside the handler's own, one per answer that has an evidence entry", () => {
    const result = { content: [], _meta: { 'example.com/trace': 't' } };
    expect(withApprovals(result, { approval: [by('dana', 'h1'), by('erin', 'h2')], note: [by('old')] })).toEqual({
      content: [],
      _meta: {
        'example.com/trace': 't',
        [APPROVALS_META_KEY]: [
          { key: 'approval', by: 'https://id.example|dana', action: 'accept', via: 'page', evidence: 'h1' },
          { key: 'approval', by: 'https://id.example|erin', action: 'accept', via: 'page', evidence: 'h2' },
        ],
      },
    });
  });

  it('leave a result without approvals as it is', () => {
    const result = { content: [] };
    expect(withApprovals(result, undefined)).toBe(result);
    expect(withApprovals(result, { approval: [by('old')] })).toBe(result);
  });
});
