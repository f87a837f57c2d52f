/**
 * One field of an elicitation's `requestedSchema`, read into the few kinds a form can ask for, so
 * the answer check, the form's parser and the page's renderer share one reading of MCP's restricted
 * schema (requested-schema.ts reads it) instead of each re-deriving it from the JSON. Types only.
 */

/** The string formats MCP's restricted schema allows. */
export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

/** One option of a single or multi-select: the value the answer carries, the title a person reads. */
export interface FieldOption {
  value: string;
  title: string;
}

interface FieldBase {
  /** The property's name: the answer's content key. */
  name: string;
  title?: string;
  description?: string;
  required: boolean;
}

export interface TextField extends FieldBase {
  kind: 'text';
  format?: StringFormat;
  minLength?: number;
  maxLength?: number;
  default?: string;
}

export interface NumberField extends FieldBase {
  kind: 'number';
  /** `type: integer`: whole numbers only. */
  integer: boolean;
  minimum?: number;
  maximum?: number;
  default?: number;
}

export interface BooleanField extends FieldBase {
  kind: 'boolean';
  default?: boolean;
}

/** A single-select enum (`enum`, `oneOf` of `{const, title}`, or legacy `enumNames`). */
export interface ChoiceField extends FieldBase {
  kind: 'choice';
  options: FieldOption[];
  default?: string;
}

/** A multi-select enum (`type: array`, `items.enum` or `items.anyOf`). */
export interface ChoicesField extends FieldBase {
  kind: 'choices';
  options: FieldOption[];
  minItems?: number;
  maxItems?: number;
  default?: string[];
}

export type RequestedField = TextField | NumberField | BooleanField | ChoiceField | ChoicesField;

/** A value of a field as an elicitation answer carries it. */
export type FieldValue = string | number | boolean | string[];
