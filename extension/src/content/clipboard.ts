/**
 * Copy, cut and paste without the system clipboard (a synthetic Control+C has no user activation): the agent keeps
 * what was copied, the page gets real `copy`/`cut`/`paste` events carrying a DataTransfer (so an editor can supply
 * or read its own data and prevent the default), and an unprevented paste inserts through execCommand('insertText'),
 * which browsers report to editors as trusted input.
 */
import { deleteText, insertText, isValueField, type ValueField } from './input';

/** The last text copied in this document, for a paste when the worker passes no clipboard. */
let held: string | undefined;

function fieldSelection(field: ValueField): string {
  try {
    return field.value.slice(field.selectionStart ?? 0, field.selectionEnd ?? 0);
  } catch {
    return '';
  }
}

function clipboardEvent(target: Element, type: 'copy' | 'cut' | 'paste', data: DataTransfer): boolean {
  return target.dispatchEvent(
    new ClipboardEvent(type, { clipboardData: data, bubbles: true, cancelable: true, composed: true }),
  );
}

/**
 * Copy (or cut) as Control+C (X) does in `target`: a `copy`/`cut` event the page may fill and prevent, else the
 * selection's text (a field's selected part, or the document selection); cut then deletes the selection. Returns the
 * text now on the agent's clipboard.
 */
export function copySelection(target: Element, cut: boolean): string {
  const data = new DataTransfer();
  const field = isValueField(target) ? target : undefined;
  let text: string;
  if (!clipboardEvent(target, cut ? 'cut' : 'copy', data)) {
    text = data.getData('text/plain');
  } else {
    text = field ? fieldSelection(field) : (window.getSelection()?.toString() ?? '');
    if (cut && text) {
      if (field) deleteText(field, false, false, 'deleteByCut');
      else document.execCommand('delete', false);
    }
  }
  held = text;
  return text;
}

/**
 * Paste as Control+V does: a `paste` event carrying the text, and unless the page prevents it, the text inserted at
 * the caret (a field's value, or an editable region through execCommand). `clipboard` is the worker's, else the
 * last text copied here. Returns false when there was nothing to paste.
 */
export function pasteText(target: Element, clipboard: string | undefined): boolean {
  const text = clipboard ?? held;
  if (text === undefined) return false;
  const data = new DataTransfer();
  data.setData('text/plain', text);
  if (!clipboardEvent(target, 'paste', data)) return true;
  if (isValueField(target)) insertText(target, text, 'insertFromPaste');
  else document.execCommand('insertText', false, text);
  return true;
}
