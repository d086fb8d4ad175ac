/**
 * Puts text into the composer from outside it (the context menu's quoted selection, a suggested prompt of the
 * welcome). The composer owns its text as state fed by its `input` event, so the text is set the way typing sets it:
 * the value, then an `input` event, which keeps the composer the only owner of what it holds.
 */

/** Adds `text` to the composer's box under `root` (after what it holds, with an empty line between), focused, caret at the end. */
export function fillComposer(root: ParentNode, text: string, mode: 'append' | 'replace' = 'append'): boolean {
  const box = root.querySelector<HTMLTextAreaElement>('textarea[name="prompt"]');
  if (!box) return false;
  const before = box.value.trimEnd();
  box.value = mode === 'append' && before ? `${before}\n\n${text}` : text;
  box.dispatchEvent(new Event('input', { bubbles: true }));
  box.focus();
  box.setSelectionRange(box.value.length, box.value.length);
  return true;
}
