/**
 * Roles, accessible names, states and values, computed the cheap way: from tags and attributes, with a computed
 * style only where an attribute cannot answer. Close to ARIA's implicit roles and accname, not a full implementation.
 */
import { clip, composedChildren, isDisabled, isNotRendered, SKIP_TAGS, textStart } from './dom';

/** Longest accessible name shown; longer names end with an ellipsis. */
export const NAME_MAX = 100;

const INPUT_ROLES: Record<string, string> = {
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  file: 'button',
  checkbox: 'checkbox',
  radio: 'radio',
  range: 'slider',
  number: 'spinbutton',
  search: 'searchbox',
  hidden: 'none',
};

const TAG_ROLES: Record<string, string> = {
  button: 'button',
  summary: 'button',
  textarea: 'textbox',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  nav: 'navigation',
  main: 'main',
  aside: 'complementary',
  form: 'form',
  dialog: 'dialog',
  search: 'search',
  fieldset: 'group',
  table: 'table',
  tr: 'row',
  td: 'cell',
  th: 'columnheader',
  ul: 'list',
  ol: 'list',
  li: 'listitem',
  p: 'paragraph',
  iframe: 'iframe',
  frame: 'iframe',
  progress: 'progressbar',
  meter: 'meter',
  article: 'article',
  hr: 'separator',
};

/** Roles a user operates: such an element gets a ref in the snapshot. */
export const ACTIONABLE_ROLES = new Set([
  'link',
  'button',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'combobox',
  'textbox',
  'searchbox',
  'slider',
  'spinbutton',
  'treeitem',
]);

/** Roles that take their name from their content when no label says otherwise. */
const NAME_FROM_CONTENT = new Set([
  ...ACTIONABLE_ROLES,
  'heading',
  'cell',
  'columnheader',
  'rowheader',
  'row',
  'generic',
  'tooltip',
]);

/** Input types typed into character by character; the others (date, color, ...) take a whole value. */
export const TEXT_INPUT_TYPES = new Set(['text', 'search', 'url', 'tel', 'password', 'email', 'number']);

/** The input's type, lower-cased, `text` when absent or unknown to the browser. */
export function inputType(el: Element): string {
  return el instanceof HTMLInputElement ? el.type.toLowerCase() : '';
}

/** The top element of a contenteditable region (not every editable descendant). */
export function isEditableRoot(el: Element): boolean {
  return el instanceof HTMLElement && el.isContentEditable && !el.parentElement?.isContentEditable;
}

function isSectioningScoped(el: Element): boolean {
  return el.parentElement?.closest('article, aside, main, nav, section') != null;
}

/** The element's role: explicit `role` first, then the implicit role of its tag. */
export function roleOf(el: Element): string {
  const explicit = el.getAttribute('role');
  if (explicit) {
    const first = explicit.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
    if (first === 'presentation' || first === 'none') return 'generic';
    if (first) return first;
  }
  const tag = el.localName;
  if (tag === 'input') return INPUT_ROLES[inputType(el)] ?? 'textbox';
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : 'generic';
  if (tag === 'select') {
    const select = el as HTMLSelectElement;
    return select.multiple || select.size > 1 ? 'listbox' : 'combobox';
  }
  if (tag === 'img') return el.getAttribute('alt') === '' ? 'generic' : 'img';
  if (tag === 'header') return isSectioningScoped(el) ? 'generic' : 'banner';
  if (tag === 'footer') return isSectioningScoped(el) ? 'generic' : 'contentinfo';
  if (tag === 'section')
    return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : 'generic';
  const role = TAG_ROLES[tag];
  if (role) return role;
  if (isEditableRoot(el)) return 'textbox';
  return 'generic';
}

/**
 * Whether the element is a control by its role or tag (a contenteditable root, a select): it gets a ref. Elements
 * that take clicks without a control role (clickable.ts) get one too, decided with their computed cursor.
 */
export function isActionable(el: Element, role: string): boolean {
  if (ACTIONABLE_ROLES.has(role)) return role !== 'listbox' || el.localName === 'select';
  return el.localName === 'select' || isEditableRoot(el);
}

/**
 * A field a user types into (a textarea, a text input, a contenteditable root) that the page keeps in the tab order:
 * code editors type through a 1x1 px textarea like this, so it stays in the snapshot though drawn as nothing.
 */
export function isTypingTarget(el: Element): boolean {
  if (el.getAttribute('tabindex')?.trim() === '-1' || isDisabled(el)) return false;
  if (el instanceof HTMLTextAreaElement) return !el.readOnly;
  if (el instanceof HTMLInputElement) return TEXT_INPUT_TYPES.has(el.type) && !el.readOnly;
  return isEditableRoot(el);
}

function byIds(el: Element, ids: string): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  return ids
    .split(/\s+/)
    .map((id) => (id ? root.getElementById?.(id) : null))
    .map((ref) => (ref ? textOf(ref, true) : ''))
    .join(' ');
}

/**
 * Rendered text of a subtree for a name: text nodes, `alt` of images, `aria-label` in place of a child's content;
 * hidden children skipped. `includeHidden` for aria-labelledby targets, which name even when hidden.
 */
export function textOf(root: Element, includeHidden = false, skipControls = false): string {
  let out = '';
  const walk = (node: Node): void => {
    if (out.length > NAME_MAX * 2) return;
    const children = composedChildren(node as Element);
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as Node;
      if (child.nodeType === Node.TEXT_NODE) {
        out += textStart(child);
        continue;
      }
      if (!(child instanceof Element)) continue;
      const tag = child.localName;
      if (SKIP_TAGS.has(tag) || child.getAttribute('aria-hidden') === 'true') continue;
      if (!includeHidden && isNotRendered(child)) continue;
      if (skipControls && (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'button')) continue;
      const label = child.getAttribute('aria-label');
      if (label) out += ` ${label} `;
      else if (tag === 'img' || tag === 'area') out += ` ${child.getAttribute('alt') ?? ''} `;
      else if (tag === 'svg') out += ` ${child.querySelector('title')?.textContent ?? ''} `;
      else if (tag === 'input')
        out += ` ${(child as HTMLInputElement).type === 'password' ? '' : (child as HTMLInputElement).value} `;
      else {
        const block = tag === 'br' || tag === 'p' || tag === 'div' || tag === 'li';
        if (block) out += ' ';
        walk(child);
        if (block) out += ' ';
      }
    }
  };
  walk(root);
  return out;
}

function labelsText(el: Element): string {
  const labels = (el as HTMLInputElement).labels;
  if (!labels || labels.length === 0) return '';
  return Array.from(labels, (label) => textOf(label, false, true)).join(' ');
}

/** The accessible name: aria-labelledby, aria-label, labels, alt, legend/caption, content, title, placeholder. */
export function nameOf(el: Element, role: string): string {
  const labelledBy = el.getAttribute('aria-labelledby');
  if (labelledBy) {
    const named = clip(byIds(el, labelledBy), NAME_MAX);
    if (named) return named;
  }
  const ariaLabel = el.getAttribute('aria-label');
  if (ariaLabel?.trim()) return clip(ariaLabel, NAME_MAX);
  const tag = el.localName;
  let name = '';
  if (tag === 'input' || tag === 'select' || tag === 'textarea' || tag === 'meter' || tag === 'progress') {
    name = labelsText(el);
    const type = inputType(el);
    if (!name && tag === 'input') {
      if (type === 'submit' || type === 'reset' || type === 'button') {
        name = (el as HTMLInputElement).value || (type === 'submit' ? 'Submit' : type === 'reset' ? 'Reset' : '');
      } else if (type === 'image') name = el.getAttribute('alt') ?? '';
    }
  } else if (tag === 'img' || tag === 'area') name = el.getAttribute('alt') ?? '';
  else if (tag === 'fieldset') name = el.querySelector(':scope > legend')?.textContent ?? '';
  else if (tag === 'table') name = (el as HTMLTableElement).caption?.textContent ?? '';
  else if (tag === 'figure') name = el.querySelector(':scope > figcaption')?.textContent ?? '';
  else if (tag === 'iframe' || tag === 'frame') name = el.getAttribute('title') ?? '';
  else if (tag === 'svg') name = el.querySelector(':scope > title')?.textContent ?? '';
  else if (NAME_FROM_CONTENT.has(role) || isEditableRoot(el)) name = isEditableRoot(el) ? '' : textOf(el);
  name = clip(name, NAME_MAX);
  if (name) return name;
  return clip(el.getAttribute('title') ?? el.getAttribute('placeholder') ?? '', NAME_MAX);
}

/** States shown in brackets: disabled, checked, pressed, expanded/collapsed, selected, required, level. */
export function statesOf(el: Element, role: string): string[] {
  const states: string[] = [];
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) {
    if (el.indeterminate) states.push('checked=mixed');
    else if (el.checked) states.push('checked');
  } else {
    const checked = el.getAttribute('aria-checked');
    if (checked === 'true') states.push('checked');
    else if (checked === 'mixed') states.push('checked=mixed');
  }
  const pressed = el.getAttribute('aria-pressed');
  if (pressed === 'true') states.push('pressed');
  const expanded = el.getAttribute('aria-expanded');
  if (expanded === 'true') states.push('expanded');
  else if (expanded === 'false') states.push('collapsed');
  else if (el.localName === 'summary' && el.parentElement instanceof HTMLDetailsElement) {
    states.push(el.parentElement.open ? 'expanded' : 'collapsed');
  }
  if (el.getAttribute('aria-selected') === 'true') states.push('selected');
  if ((el as HTMLInputElement).required === true || el.getAttribute('aria-required') === 'true') {
    states.push('required');
  }
  if (isDisabled(el)) states.push('disabled');
  if (role === 'heading') {
    const level = /^h([1-6])$/.exec(el.localName)?.[1] ?? el.getAttribute('aria-level');
    if (level) states.push(`level=${level}`);
  }
  return states;
}

/** A field's value as shown, with its whole length when it was cut (`page_read` with its ref reads it whole). */
export interface FieldValue {
  value?: string;
  /** A password: the caller writes `[password]`, never the value. */
  password?: boolean;
  /** Characters of the whole value, set only when `value` was cut. */
  total?: number;
}

function shown(text: string): FieldValue {
  const value = clip(text, NAME_MAX);
  if (!value) return {};
  const cut = text.length > NAME_MAX && text.replace(/\s+/g, ' ').trim().length > NAME_MAX;
  return cut ? { value, total: text.length } : { value };
}

/**
 * The value shown after the colon: text of a field, the chosen options of a select, a slider's number. Never a
 * password's (`password` true tells the caller to write `[password]` instead).
 */
export function fieldValue(el: Element): FieldValue {
  if (el instanceof HTMLInputElement) {
    const type = el.type;
    if (type === 'password') return { password: true };
    if (type === 'checkbox' || type === 'radio' || type === 'submit' || type === 'button' || type === 'reset') {
      return {};
    }
    if (type === 'image' || type === 'file')
      return type === 'file' && el.files?.length ? { value: clip(el.files[0]?.name ?? '', NAME_MAX) } : {};
    return shown(el.value);
  }
  if (el instanceof HTMLTextAreaElement) return shown(el.value);
  if (el instanceof HTMLSelectElement) {
    const chosen = Array.from(el.selectedOptions, (option) => option.label.trim()).join(', ');
    return chosen ? { value: clip(chosen, NAME_MAX) } : {};
  }
  if (isEditableRoot(el)) return shown(el.textContent ?? '');
  const now = el.getAttribute('aria-valuenow');
  return now ? { value: clip(el.getAttribute('aria-valuetext') ?? now, NAME_MAX) } : {};
}

/**
 * The whole of what an element holds, for `page_read` with a ref: a field's value, a select's chosen options, else
 * the rendered text. Undefined for a password field, whose value never leaves the page.
 */
export function wholeValue(el: Element): string | undefined {
  if (el instanceof HTMLInputElement) {
    if (el.type === 'password') return undefined;
    return el.type === 'file' ? Array.from(el.files ?? [], (file) => file.name).join('\n') : el.value;
  }
  if (el instanceof HTMLTextAreaElement) return el.value;
  if (el instanceof HTMLSelectElement)
    return Array.from(el.selectedOptions, (option) => option.label.trim()).join('\n');
  // biome-ignore lint/performance/useDomNodeTextContent: innerText is the rendered text, with line breaks where a user sees them.
  return el instanceof HTMLElement ? el.innerText : (el.textContent ?? '');
}
