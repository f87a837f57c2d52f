// Pins that every embedded request goes out on the 2026-07-28 wire with `params`, and that nothing
// else about it changes.
import { wireInputRequests } from './wire-asks';

describe('wireInputRequests', () => {
  it('gives params {} to an embedded request recorded without them', () => {
    expect(wireInputRequests({ roots: { method: 'roots/list' } })).toEqual({
      roots: { method: 'roots/list', params: {} },
    });
  });

  it('keeps params, other fields and unknown embedded kinds as they are', () => {
    const asked = {
      name: { method: 'elicitation/create', params: { message: 'Name?' }, _meta: { x: 1 } },
      future: { method: 'x/future', params: { deep: [1, 2] } },
    };
    expect(wireInputRequests(asked)).toEqual(asked);
  });

  it('leaves what is not an object alone, and does not change its input', () => {
    const asked = { odd: 'text', list: [1], none: null, roots: { method: 'roots/list' } };
    const wire = wireInputRequests(asked);
    expect(wire).toEqual({ odd: 'text', list: [1], none: null, roots: { method: 'roots/list', params: {} } });
    expect(asked.roots).toEqual({ method: 'roots/list' });
  });

  it('is {} for no embedded requests', () => {
    expect(wireInputRequests({})).toEqual({});
  });
});
