// Pins how a validator's failure text becomes the isError answer: one `arguments.<path>: problem`
// line per failure, required properties named at their own path, and a bounded size.
import {
  argumentProblems,
  invalidArgumentsResult,
  MAX_PROBLEM_CHARS,
  MAX_REPORTED_PROBLEMS,
} from './argument-problems';

describe('argumentProblems', () => {
  it('names each failing field path under arguments', () => {
    expect(
      argumentProblems(
        "data must have required property 'service', data/reason must be string, data/a~1b/0 must be integer",
      ),
    ).toEqual([
      'arguments.service: is required',
      'arguments.reason: must be string',
      'arguments.a/b.0: must be integer',
    ]);
  });

  it('keeps a ", " inside one message and names the root as arguments', () => {
    expect(argumentProblems('data must match pattern "^a, b$", data must NOT have additional properties')).toEqual([
      'arguments: must match pattern "^a, b$"',
      'arguments: must NOT have additional properties',
    ]);
  });

  it('cuts a long message', () => {
    const [line] = argumentProblems(`data/x must be equal to constant ${'y'.repeat(1000)}`);
    expect(line).toHaveLength(MAX_PROBLEM_CHARS);
    expect(line!.endsWith('…')).toBe(true);
  });
});

describe('invalidArgumentsResult', () => {
  it('is an isError tool result listing the problems', () => {
    expect(invalidArgumentsResult('t', ['arguments.a: is required'])).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool t:\narguments.a: is required' }],
      isError: true,
    });
  });

  it('shows at most MAX_REPORTED_PROBLEMS and counts the rest', () => {
    const problems = Array.from({ length: MAX_REPORTED_PROBLEMS + 5 }, (_, i) => `arguments.f${i}: is required`);
    const [content] = invalidArgumentsResult('t', problems).content as Array<{ text: string }>;
    const lines = content!.text.split('\n');
    expect(lines).toHaveLength(MAX_REPORTED_PROBLEMS + 2);
    expect(lines.at(-1)).toBe('(and 5 more)');
  });
});
