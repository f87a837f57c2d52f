// Pins the capability rule: every embedded request kind the client did not declare is reported, all at once.
import { missingCapabilities } from './capabilities';

const formElicit = {
  method: 'elicitation/create',
  params: { mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
};
const implicitFormElicit = {
  method: 'elicitation/create',
  params: { message: 'Name?', requestedSchema: { type: 'object', properties: {} } },
};
const urlElicit = {
  method: 'elicitation/create',
  params: { mode: 'url', message: 'Sign in', url: 'https://example.com/login' },
};
const sampling = { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } };
const roots = { method: 'roots/list' };

describe('missingCapabilities', () => {
  describe('with elicitation: {}', () => {
    const declared = { elicitation: {} };

    it('allows a form elicitation, with or without an explicit form mode', () => {
      expect(missingCapabilities({ a: formElicit, b: implicitFormElicit }, declared)).toEqual({});
    });

    it('refuses a url elicitation and names url mode as missing', () => {
      expect(missingCapabilities({ login: urlElicit }, declared)).toEqual({ elicitation: { url: {} } });
    });
  });

  describe('with elicitation: { url: {} }', () => {
    const declared = { elicitation: { url: {} } };

    it('allows a url elicitation', () => {
      expect(missingCapabilities({ login: urlElicit }, declared)).toEqual({});
    });

    it('refuses a form elicitation and names form mode as missing', () => {
      expect(missingCapabilities({ name: formElicit }, declared)).toEqual({ elicitation: { form: {} } });
      expect(missingCapabilities({ name: implicitFormElicit }, declared)).toEqual({ elicitation: { form: {} } });
    });
  });

  it('allows both modes when both are declared', () => {
    expect(missingCapabilities({ a: formElicit, b: urlElicit }, { elicitation: { form: {}, url: {} } })).toEqual({});
  });

  it('lists elicitation as missing when the client declared no elicitation at all', () => {
    expect(missingCapabilities({ name: formElicit }, { sampling: {} })).toEqual({ elicitation: { form: {} } });
  });

  it('lists sampling as missing when a sampling request is asked of a client without it', () => {
    expect(missingCapabilities({ draft: sampling }, { elicitation: {} })).toEqual({ sampling: {} });
  });

  it('lists roots as missing when a roots request is asked of a client without it', () => {
    expect(missingCapabilities({ dirs: roots }, { elicitation: {} })).toEqual({ roots: {} });
  });

  it('allows sampling and roots when the client declared them', () => {
    expect(
      missingCapabilities({ draft: sampling, dirs: roots }, { sampling: {}, roots: { listChanged: true } }),
    ).toEqual({});
  });

  it('reports every missing capability at once, merging both elicitation modes', () => {
    expect(missingCapabilities({ a: formElicit, b: urlElicit, c: sampling, d: roots }, {})).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: {},
      roots: {},
    });
  });

  it('returns {} when nothing is missing', () => {
    const declared = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };
    expect(missingCapabilities({ a: formElicit, b: urlElicit, c: sampling, d: roots }, declared)).toEqual({});
  });

  it('returns {} for an ask with no embedded requests', () => {
    expect(missingCapabilities({}, {})).toEqual({});
  });
});
