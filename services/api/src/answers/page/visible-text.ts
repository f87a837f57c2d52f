/**
 * Text a handler, a caller or a person wrote, made safe to approve by eye: every character that
 * shows nothing or moves what is around it (controls, the bidirectional overrides and isolates
 * U+202A-U+202E and U+2066-U+2069, the zero-width and direction marks U+200B-U+200F, the word
 * joiner and invisible operators, the byte order mark, soft hyphen, Unicode tags that can smuggle
 * a hidden text, variation selectors, fillers that render blank, line and paragraph separators,
 * lone surrogates) is shown as a marker naming its code point, `⟨U+202E⟩`. A `⟨` in the text is
 * shown as a marker too, so no text can forge one. Only what the page displays goes through this;
 * what a form posts back (an option's value, a typed answer) is never rewritten. Pure.
 */

const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u034F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u3164\uFE00-\uFE0D\uFFA0\u{E0100}-\u{E01EF}\u27E8]/gu;

/** The marker that stands for `char`: `⟨U+202E⟩`. */
export function markerOf(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

/**
 * `text` with every invisible or reordering character shown as its marker. With `lines`, a line
 * feed and a tab stay as they are (a message laid out on several lines); anywhere else they are
 * marked too (a label, a name).
 */
export function visibleText(text: string, options: { lines?: boolean } = {}): string {
  return text.replace(INVISIBLE, (char) => (options.lines && (char === '\n' || char === '\t') ? char : markerOf(char)));
}
