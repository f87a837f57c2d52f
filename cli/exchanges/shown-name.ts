/**
 * A principal as `durable-mcp exchanges` prints it: its key, then the display name and verified
 * email its token carried, beside the key and never instead (`https://id.example.com|x3Jq (“Rita
 * Approver”, rita@example.com)`). Both are self-chosen text: every control, bidirectional or
 * invisible character in them is printed as a marker (`⟨U+001B⟩`), as the answer page shows it, so
 * a name can neither drive the terminal nor pass for another. Pure.
 */
import { visibleText } from '../../services/api/src/answers/page/visible-text';

export function withShownName(key: string, who: { name?: string; email?: string }): string {
  const beside = [
    ...(who.name !== undefined ? [`“${visibleText(who.name)}”`] : []),
    ...(who.email !== undefined ? [visibleText(who.email)] : []),
  ];
  return beside.length > 0 ? `${key} (${beside.join(', ')})` : key;
}
