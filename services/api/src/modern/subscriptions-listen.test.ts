import { honoredFilter } from './subscriptions-listen';

describe('what of a subscriptions/listen filter is honored', () => {
  it("honors each list's changes asked for where the lists can change, never a resource's contents", () => {
    const asked = {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: false,
      resourceSubscriptions: ['notes://readme'],
    };
    expect(honoredFilter(asked, { listsChange: true })).toEqual({ toolsListChanged: true, promptsListChanged: true });
  });

  it('honors nothing where nothing changes', () => {
    expect(honoredFilter({ toolsListChanged: true, promptsListChanged: true }, { listsChange: false })).toEqual({});
  });
});
