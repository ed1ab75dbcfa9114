// Where a list item's checkbox is: GFM gives the item (its bullet) and its first paragraph a position, and the
// checkbox is what lies between them; ledger markers (`[→]`, `[->]`, `[>]`) are the first characters of the
// paragraph, plain text to GFM. Offsets come from the parse, never from searching the Markdown.
import type { ListItem, Root } from 'mdast';
import { visit } from 'unist-util-visit';

export function listItemAt(root: Root, line: number, column: number): ListItem | null {
  let found: ListItem | null = null;
  visit(root, 'listItem', (node) => {
    if (node.position?.start.line === line && node.position.start.column === column) {
      found = node;
      return false;
    }
    return undefined;
  });
  return found;
}

/** The offsets of an item's checkbox or ledger marker (`[ ]`, `[x]`, `[→]`), or null when it has none. */
export function checkboxRange(
  text: string,
  item: ListItem,
  markers: readonly string[],
): { start: number; end: number; box: string } | null {
  const para = item.children[0];
  const from = item.position?.start.offset;
  const to = para?.type === 'paragraph' ? para.position?.start.offset : undefined;
  if (from === undefined || to === undefined) return null;
  if (item.checked !== null && item.checked !== undefined) {
    // Between the bullet and the paragraph: `- [ ] ` (GFM's checkbox is exactly three characters).
    const open = text.lastIndexOf('[', to - 1);
    if (open < from || text[open + 2] !== ']') return null;
    return { start: open, end: open + 3, box: text.slice(open, open + 3) };
  }
  const marker = markers.find((m) => text.startsWith(m, to));
  return marker ? { start: to, end: to + marker.length, box: marker } : null;
}
