import { interpolate, MissingVariableError } from './compose-interpolation';

describe('interpolate', () => {
  const vars = { SET: 'value', EMPTY: '', PORT: '4000' };

  it('replaces $VAR and ${VAR}, unset ones with nothing', () => {
    expect(interpolate('a $SET b ${SET} c ${UNSET}d', vars)).toBe('a value b value c d');
  });

  it('keeps $$ as one literal $, and a $ before no name as itself', () => {
    expect(interpolate('pg_isready -U "$${POSTGRES_USER}" costs $5', vars)).toBe(
      'pg_isready -U "${POSTGRES_USER}" costs $5',
    );
  });

  it('gives :- defaults for unset or empty, - defaults for unset only', () => {
    expect(interpolate('${UNSET:-d}|${EMPTY:-d}|${SET:-d}', vars)).toBe('d|d|value');
    expect(interpolate('${UNSET-d}|${EMPTY-d}|${SET-d}', vars)).toBe('d||value');
  });

  it('interpolates inside defaults', () => {
    expect(interpolate('${URL:-http://127.0.0.1:${PORT:-3000}/codec}', vars)).toBe('http://127.0.0.1:4000/codec');
    expect(interpolate('${URL:-http://127.0.0.1:${NOPORT:-3000}/codec}', vars)).toBe('http://127.0.0.1:3000/codec');
  });

  it('refuses a required variable with its message', () => {
    expect(() => interpolate('${EMPTY:?set EMPTY in .env}', vars)).toThrow(
      new MissingVariableError('EMPTY', 'set EMPTY in .env'),
    );
    expect(interpolate('${EMPTY?set it}', vars)).toBe('');
    expect(() => interpolate('${UNSET?set it}', vars)).toThrow(/UNSET: set it/);
    expect(interpolate('${SET:?x}', vars)).toBe('value');
  });

  it('gives :+ and + replacements only for set variables', () => {
    expect(interpolate('${SET:+on}|${EMPTY:+on}|${EMPTY+on}|${UNSET+on}', vars)).toBe('on||on|');
  });

  it('refuses malformed references', () => {
    expect(() => interpolate('${SET', vars)).toThrow(/unclosed/);
    expect(() => interpolate('${1X}', vars)).toThrow(/invalid variable reference/);
  });
});
