/**
 * The names the answer page's form posts. A property's field is posted as its answer path
 * (`content.amount`, `content["odd name"]`), so no property name, `action` or `csrf` included, can
 * collide with the page's own fields, and a problem's path names the form field it is about.
 */
import { childPath } from '../protocol/json-budget';

/** The submit button's name: `accept` or `decline`. */
export const ACTION_FIELD = 'action';
/** The page's anti-forgery token. */
export const CSRF_FIELD = 'csrf';
/** The `shownDigest` of what the page showed, so an answer to a question that changed is refused. */
export const SHOWN_FIELD = 'shown';

/** The form field of the property `name`: its path in the answer. */
export function formFieldName(name: string): string {
  return childPath('content', name);
}
