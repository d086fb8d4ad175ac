/**
 * The actions by ref. `prepareAction` checks everything that can be checked before touching the page (a disabled or
 * hidden target, a select without that option, a file input, a malformed key) and throws an ActionError that names
 * the element; the returned function then performs the action with synthetic events.
 */
import type { AgentAction } from '../shared/agent-contract';
import { isDisabled, isInvisible, isNotRendered } from './dom';
import {
  ActionError,
  describeEl,
  fireChange,
  insertEditableText,
  insertText,
  isValueField,
  keyEvent,
  replaceValue,
  scrollIntoViewIfNeeded,
  type ValueField,
} from './input';
import { movesEditorCaret } from './editing';
import type { FocusClock } from './focus-clock';
import { pressKey } from './keyboard';
import { deepActiveElement } from './snapshot';
import { clickAt, moveTo } from './pointer';
import { type Aim, AimError, aimAt } from './pointing';
import { staleMessage } from './refs';
import { dragFrom, dropFiles, fileInputFor, prepareFileInput } from './transfer';
import { checkFiles } from './upload-files';
import { KeyParseError, parseKey, type KeyChord } from './keys';
import { isEditableRoot, roleOf, TEXT_INPUT_TYPES } from './roles';

const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
/** Cells of a data table or grid, which a user edits through the editor they open. */
const GRID_CELL_ROLES = new Set(['gridcell', 'cell']);

function checkedState(el: Element): boolean | undefined {
  if (el instanceof HTMLInputElement && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
  if (CHECKABLE_ROLES.has(roleOf(el))) return el.getAttribute('aria-checked') === 'true';
  return undefined;
}

function typeInto(el: Element, text: string, clear: boolean, submit: boolean): void {
  scrollIntoViewIfNeeded(el);
  (el as HTMLElement).focus({ preventScroll: true });
  if (isEditableRoot(el) || (el instanceof HTMLElement && el.isContentEditable)) {
    if (clear) insertEditableText(el as HTMLElement, '', true);
    for (const char of text) {
      const chord: KeyChord = { key: char, code: '', ctrl: false, shift: false, alt: false, meta: false };
      if (keyEvent(el, 'keydown', chord) && keyEvent(el, 'keypress', chord))
        insertEditableText(el as HTMLElement, char);
      keyEvent(el, 'keyup', chord);
    }
  } else {
    const field = el as ValueField;
    if (clear && field.value) replaceValue(field, '');
    if (field instanceof HTMLInputElement && !TEXT_INPUT_TYPES.has(field.type)) {
      // A date or colour takes a whole value, not characters.
      replaceValue(field, text);
    } else {
      for (const char of text) {
        const chord: KeyChord = {
          key: char === '\n' ? 'Enter' : char,
          code: '',
          ctrl: false,
          shift: false,
          alt: false,
          meta: false,
        };
        if (keyEvent(el, 'keydown', chord) && keyEvent(el, 'keypress', chord)) insertText(field, char);
        keyEvent(el, 'keyup', chord);
      }
    }
    fireChange(el);
  }
  if (submit) pressKey(el, { key: 'Enter', code: 'Enter', ctrl: false, shift: false, alt: false, meta: false });
}

function fill(el: Element, value: string): void {
  scrollIntoViewIfNeeded(el);
  (el as HTMLElement).focus({ preventScroll: true });
  if (el instanceof HTMLElement && el.isContentEditable) {
    insertEditableText(el, value, true);
    return;
  }
  const field = el as ValueField;
  replaceValue(field, value);
  // A value the field cannot hold is sanitised away (a date it cannot parse); a clamped range or a colour's case is fine.
  if (field.value === '' && value.trim() !== '') {
    const hint = field instanceof HTMLInputElement ? VALUE_FORMATS[field.type] : undefined;
    throw new ActionError(
      `${describeEl(el)} did not accept ${JSON.stringify(value)}${hint ? `: it takes ${hint}` : ''}.`,
    );
  }
  fireChange(el);
}

const VALUE_FORMATS: Record<string, string> = {
  date: 'a date as YYYY-MM-DD',
  time: 'a time as HH:MM',
  'datetime-local': 'YYYY-MM-DDTHH:MM',
  month: 'YYYY-MM',
  week: 'YYYY-Www',
  color: 'a colour as #rrggbb',
  number: 'a number',
  range: 'a number in its range',
  email: 'an email address',
};

function chooseOptions(select: HTMLSelectElement, values: readonly string[]): HTMLOptionElement[] {
  const options = Array.from(select.options);
  if (values.length > 1 && !select.multiple) {
    throw new ActionError(`${describeEl(select)} takes one option, not ${values.length}: pass one value.`);
  }
  return values.map((wanted) => {
    const option =
      options.find((o) => o.value === wanted) ??
      options.find((o) => o.label.trim() === wanted.trim()) ??
      options.find((o) => o.label.trim().toLowerCase() === wanted.trim().toLowerCase());
    if (!option) {
      const shown = options.slice(0, 30).map((o) => JSON.stringify(o.label.trim() || o.value));
      const more = options.length > 30 ? ` and ${options.length - 30} more` : '';
      throw new ActionError(
        `${describeEl(select)} has no option ${JSON.stringify(wanted)}. Its options are: ${shown.join(', ')}${more}.`,
      );
    }
    if (option.disabled)
      throw new ActionError(`Option ${JSON.stringify(option.label)} of ${describeEl(select)} is disabled.`);
    return option;
  });
}

/** What an action reports beyond its effect on the page: text it copied, limits it met. */
export interface ActionReport {
  copied?: string;
  limits?: string[];
}

/** An action's return: a report, or nothing to add. */
// biome-ignore lint/suspicious/noConfusingVoidType: most actions are one call that returns nothing (`() => el.focus()`).
export type ActionOutput = ActionReport | undefined | void;

/**
 * Checks the action against its target and returns the function that performs it; throws ActionError when it
 * cannot. `clipboard` is the worker's clipboard text, for a paste; `resolve` turns a drag's `to` into its element;
 * `focusClock` paces a caret move in an editor that focus has only just reached.
 */
export function prepareAction(
  action: AgentAction,
  el: Element | undefined,
  {
    clipboard,
    resolve,
    focusClock,
  }: { clipboard?: string; resolve: (ref: string) => Element | undefined; focusClock?: FocusClock },
): () => ActionOutput | Promise<ActionOutput> {
  if (el && action.kind !== 'scroll') {
    if (isNotRendered(el) || isInvisible(el)) {
      throw new ActionError(
        `${describeEl(el)} is hidden, so a user could not ${action.kind} it. Call page_snapshot to see what is shown now.`,
      );
    }
    if (isDisabled(el))
      throw new ActionError(`${describeEl(el)} is disabled; it cannot be used until the page enables it.`);
  }
  switch (action.kind) {
    case 'click': {
      const aim = aimOrRefuse(need(el, action.kind), 'click', action.clickCover);
      return () => clickAt(aim.hit, aim.point, action.button, action.double);
    }
    case 'hover': {
      const aim = aimOrRefuse(need(el, action.kind), 'hover over', action.clickCover);
      return () => moveTo(aim.hit, aim.point);
    }
    case 'type':
    case 'fill': {
      const target = need(el, action.kind);
      if (target instanceof HTMLSelectElement && action.kind === 'fill') {
        const options = chooseOptions(target, [action.value]);
        return () => selectOptions(target, options);
      }
      if (target instanceof HTMLInputElement && target.type === 'file') {
        throw new ActionError(`${describeEl(target)} is a file input: use page_upload to give it files.`);
      }
      if (target instanceof HTMLInputElement && (target.type === 'checkbox' || target.type === 'radio')) {
        throw new ActionError(`${describeEl(target)} is a ${target.type}: use page_check to set it.`);
      }
      if (!isValueField(target) && !(target instanceof HTMLElement && target.isContentEditable)) {
        // A grid's cell edits through an editor it opens on a double-click (or Enter), a textbox of its own.
        const cell = GRID_CELL_ROLES.has(roleOf(target))
          ? ': double-click it (page_click with double) to open its editor, then type into the textbox that appears'
          : '; page_type and page_fill_form need a textbox';
        throw new ActionError(`${describeEl(target)} is not a text field${cell}.`);
      }
      if ((target as ValueField).readOnly) throw new ActionError(`${describeEl(target)} is read-only.`);
      return action.kind === 'type'
        ? () => typeInto(target, action.text, action.clear, action.submit)
        : () => fill(target, action.value);
    }
    case 'select': {
      const target = need(el, action.kind);
      if (!(target instanceof HTMLSelectElement)) {
        throw new ActionError(
          `${describeEl(target)} is not a <select>: click it to open its list, then click the option.`,
        );
      }
      const options = chooseOptions(target, action.values);
      return () => selectOptions(target, options);
    }
    case 'check': {
      const target = need(el, action.kind);
      const state = checkedState(target);
      if (state === undefined)
        throw new ActionError(`${describeEl(target)} is not a checkbox, radio button or switch.`);
      if (state === action.checked) return () => {};
      if (!action.checked && (roleOf(target) === 'radio' || roleOf(target) === 'menuitemradio')) {
        throw new ActionError(
          `${describeEl(target)} is a radio button: it cannot be unchecked. Check another option of its group instead.`,
        );
      }
      const aim = aimOrRefuse(target, 'click');
      return () => {
        clickAt(aim.hit, aim.point, 'left', false);
        if (checkedState(target) !== action.checked) {
          throw new ActionError(
            `Clicking ${describeEl(target)} did not change it (the page kept it ${state ? 'checked' : 'unchecked'}).`,
          );
        }
      };
    }
    case 'press': {
      let chord: KeyChord;
      try {
        chord = parseKey(action.key);
      } catch (error) {
        if (error instanceof KeyParseError) throw new ActionError(error.message, { cause: error });
        throw error;
      }
      return () => {
        const target = el ?? deepActiveElement() ?? document.body;
        const settling = movesEditorCaret(target, chord) ? focusClock?.settled(target) : undefined;
        return settling ? settling.then(() => pressKey(target, chord, clipboard)) : pressKey(target, chord, clipboard);
      };
    }
    case 'scroll':
      return () => scrollBy(el, action.dy);
    case 'drag': {
      const source = need(el, action.kind);
      const target = resolve(action.to);
      if (!target) throw new ActionError(staleMessage(action.to));
      if (isNotRendered(target) || isInvisible(target)) {
        throw new ActionError(`${describeEl(target)} is hidden, so a user could not drop on it.`);
      }
      aimOrRefuse(target, 'drop on');
      const from = aimOrRefuse(source, 'drag');
      return () => drag(source, from, target, action.position);
    }
    case 'upload': {
      const target = need(el, action.kind);
      const input = fileInputFor(target);
      if (input) return prepareFileInput(input, action.files);
      checkFiles(action.files);
      const aim = aimOrRefuse(target, 'drop files on');
      return () => dropFiles(target, aim.hit, aim.point, action.files);
    }
  }
}

/**
 * Where a user would point at the element (scrolled into view); refuses when it cannot be pointed at, or when
 * something covers it, naming the cover: a click never goes through a cover silently. `onCover` aims at the cover.
 */
function aimOrRefuse(el: Element, verb: string, onCover = false): Aim {
  let aim: Aim;
  try {
    aim = aimAt(el);
  } catch (error) {
    if (error instanceof AimError)
      throw new ActionError(`A user could not ${verb} ${describeEl(el)}: ${error.message}.`);
    throw error;
  }
  if (aim.covered && !onCover) {
    throw new ActionError(
      `${describeEl(el)} is ${aim.covered}, so a user's ${verb === 'click' ? 'click' : 'pointer'} would land on that. ` +
        'Close or answer it first (look for its buttons in page_snapshot), then try again.',
    );
  }
  return aim;
}

/**
 * Drags `source` onto `target` (at `position` from its top-left, else where a user would point at it): HTML5
 * drag-and-drop when what is pressed is draggable, else a pointer path.
 */
async function drag(
  source: Element,
  from: Aim,
  target: Element,
  position: { x: number; y: number } | undefined,
): Promise<ActionOutput> {
  // Both ends in view: aiming at the target may scroll the source away, so the source's point is taken again.
  const to = aimAt(target);
  const box = target.getBoundingClientRect();
  const end = position ? { x: box.left + position.x, y: box.top + position.y } : to.point;
  const start = source.isConnected ? aimAt(source).point : from.point;
  return dragFrom(source, start, end);
}

function need(el: Element | undefined, kind: string): Element {
  if (!el) throw new ActionError(`page_${kind} needs a ref: call page_snapshot and pass the ref of the element.`);
  return el;
}

function selectOptions(select: HTMLSelectElement, options: readonly HTMLOptionElement[]): void {
  scrollIntoViewIfNeeded(select);
  select.focus({ preventScroll: true });
  if (select.multiple) {
    for (const option of Array.from(select.options)) option.selected = options.includes(option);
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  } else replaceValue(select, (options[0] as HTMLOptionElement).value);
  fireChange(select);
}

function isScrollable(el: Element): boolean {
  return el.scrollHeight > el.clientHeight + 1 && el.clientHeight > 0;
}

function scrollBy(el: Element | undefined, dy: number): void {
  if (el && (dy === 0 || !isScrollable(el))) {
    el.scrollIntoView({ block: 'center', behavior: 'instant' });
    return;
  }
  if (el) {
    el.scrollBy({ top: dy, behavior: 'instant' });
    return;
  }
  const before = window.scrollY;
  window.scrollBy({ top: dy, behavior: 'instant' });
  if (window.scrollY !== before) return;
  // The window does not scroll (an app with its own scroll pane): scroll the pane under the viewport's centre.
  for (
    let node = document.elementFromPoint(window.innerWidth / 2, window.innerHeight / 2);
    node;
    node = node.parentElement
  ) {
    if (isScrollable(node)) {
      node.scrollBy({ top: dy, behavior: 'instant' });
      return;
    }
  }
}
