/**
 * Compose's variable interpolation, as the Compose Specification defines it, for reading
 * docker-compose.yml without Docker: `$$` is a literal `$`; `$VAR` and `${VAR}` are the variable
 * (empty when unset); `${VAR:-default}` / `${VAR-default}` give a default when it is unset or empty
 * / unset; `${VAR:?message}` / `${VAR?message}` fail with the message when it is unset or empty /
 * unset; `${VAR:+other}` / `${VAR+other}` give `other` when it is set and not empty / set. Defaults,
 * messages and replacements are interpolated themselves, so `${A:-http://${B:-x}/}` works.
 */

export type Variables = Readonly<Record<string, string | undefined>>;

/** A `${VAR:?message}` whose variable is missing: Compose refuses to start with this message. */
export class MissingVariableError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`${variable}: ${detail || 'required variable is missing a value'}`);
    this.name = 'MissingVariableError';
  }
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*/;
const OPERATORS = [':-', ':?', ':+', '-', '?', '+'] as const;

/** `text` with every variable reference replaced from `variables`. */
export function interpolate(text: string, variables: Variables): string {
  return new Interpolation(text, variables).run();
}

class Interpolation {
  private at = 0;
  constructor(
    private readonly text: string,
    private readonly variables: Variables,
  ) {}

  run(): string {
    return this.until(undefined);
  }

  /** Reads up to `stop` (a `}` closing a reference) or the end, replacing references. */
  private until(stop: '}' | undefined): string {
    let out = '';
    while (this.at < this.text.length) {
      const char = this.text[this.at]!;
      if (char === stop) return out;
      if (char !== '$') {
        out += char;
        this.at += 1;
        continue;
      }
      const next = this.text[this.at + 1];
      if (next === '$') {
        out += '$';
        this.at += 2;
      } else if (next === '{') {
        this.at += 2;
        out += this.braced();
      } else {
        const name = NAME.exec(this.text.slice(this.at + 1))?.[0];
        if (!name) {
          out += '$';
          this.at += 1;
        } else {
          out += this.variables[name] ?? '';
          this.at += 1 + name.length;
        }
      }
    }
    if (stop) throw new Error(`unclosed \${ in ${JSON.stringify(this.text)}`);
    return out;
  }

  /** After `${`: the name, an optional operator and its operand, and the closing `}`. */
  private braced(): string {
    const name = NAME.exec(this.text.slice(this.at))?.[0];
    if (!name) throw new Error(`invalid variable reference in ${JSON.stringify(this.text)}`);
    this.at += name.length;
    const operator = OPERATORS.find((op) => this.text.startsWith(op, this.at));
    let operand = '';
    if (operator) {
      this.at += operator.length;
      operand = this.until('}');
    }
    if (this.text[this.at] !== '}') throw new Error(`unclosed \${${name} in ${JSON.stringify(this.text)}`);
    this.at += 1;
    return resolve(name, this.variables[name], operator, operand);
  }
}

function resolve(name: string, value: string | undefined, operator: string | undefined, operand: string): string {
  const set = value !== undefined;
  const nonEmpty = set && value !== '';
  switch (operator) {
    case undefined:
      return value ?? '';
    case ':-':
      return nonEmpty ? value : operand;
    case '-':
      return set ? value : operand;
    case ':?':
      if (!nonEmpty) throw new MissingVariableError(name, operand);
      return value;
    case '?':
      if (!set) throw new MissingVariableError(name, operand);
      return value;
    case ':+':
      return nonEmpty ? operand : '';
    default: // '+'
      return set ? operand : '';
  }
}
