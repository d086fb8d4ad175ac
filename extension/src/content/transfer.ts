/**
 * Drag and upload with synthetic events. A drag is HTML5 drag-and-drop with a DataTransfer when what is under the
 * pointer is draggable (as the browser decides: `draggable`, links and images), else a pointer path for lists that
 * sort on pointer moves. An upload sets a file input's files as a user's choice does (input.files, input, change),
 * or drops the files on a drop zone (dragenter, dragover, drop carrying them).
 */
import type { AgentFile } from '../shared/agent-contract';
import { ActionError, describeEl } from './input';
import { moveTo, nextFrame, pointerDrag, pressDown, release } from './pointer';
import { pathPoints, type ViewportPoint } from './geometry';
import { deepElementFromPoint } from './pointing';
import { accepts, checkFiles } from './upload-files';

function toFile(file: AgentFile): File {
  const binary = atob(file.base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], file.name, { type: file.type, lastModified: Date.now() });
}

function transferOf(files: readonly AgentFile[]): DataTransfer {
  const data = new DataTransfer();
  for (const file of files) data.items.add(toFile(file));
  return data;
}

/** The file input an upload on `el` fills: itself, the control of a label, or the one file input inside it. */
export function fileInputFor(el: Element): HTMLInputElement | undefined {
  const isFileInput = (n: unknown): n is HTMLInputElement => n instanceof HTMLInputElement && n.type === 'file';
  if (isFileInput(el)) return el;
  if (el instanceof HTMLLabelElement && isFileInput(el.control)) return el.control;
  const inside = el.querySelectorAll('input[type=file]');
  return inside.length === 1 && isFileInput(inside[0]) ? inside[0] : undefined;
}

/**
 * Checks an upload to a file input and returns the function that sets the files; notes files outside `accept`
 * (a user's picker lets them choose those too, but the page may refuse them).
 */
export function prepareFileInput(input: HTMLInputElement, files: readonly AgentFile[]): () => { limits?: string[] } {
  checkFiles(files);
  if (input.disabled) throw new ActionError(`${describeEl(input)} is disabled.`);
  if (files.length > 1 && !input.multiple) {
    throw new ActionError(`${describeEl(input)} takes one file, not ${files.length}: upload one.`);
  }
  const outside = files.filter((f) => !accepts(input.accept, f.name, f.type)).map((f) => f.name);
  return () => {
    input.files = transferOf(files).files;
    input.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    input.dispatchEvent(new Event('change', { bubbles: true }));
    return outside.length > 0
      ? { limits: [`${outside.join(', ')} is not among the types the input accepts (${input.accept}).`] }
      : {};
  };
}

function dragEvent(el: Element, type: string, p: ViewportPoint, data: DataTransfer): boolean {
  return el.dispatchEvent(
    new DragEvent(type, {
      bubbles: true,
      cancelable: type !== 'dragleave' && type !== 'dragend',
      composed: true,
      view: window,
      clientX: p.x,
      clientY: p.y,
      screenX: p.x + window.screenX,
      screenY: p.y + window.screenY,
      dataTransfer: data,
    }),
  );
}

/** Drops files on what is at `p` (a drop zone): dragenter, dragover, drop; refuses when the zone ignores dragover. */
export function dropFiles(zone: Element, hit: Element, p: ViewportPoint, files: readonly AgentFile[]): void {
  const data = transferOf(files);
  dragEvent(hit, 'dragenter', p, data);
  if (dragEvent(hit, 'dragover', p, data)) {
    dragEvent(hit, 'dragleave', p, data);
    throw new ActionError(
      `${describeEl(zone)} does not take dropped files (it did not accept the drag). Upload to its file input instead.`,
    );
  }
  dragEvent(hit, 'drop', p, data);
}

/** The element a native drag starts from: the nearest draggable element at or above `hit`. */
export function draggableFrom(hit: Element): HTMLElement | undefined {
  for (let n: Element | null = hit; n; n = n.parentElement) {
    if (n instanceof HTMLElement && n.draggable) return n;
  }
  return undefined;
}

/** What a drag did, for the result. */
export interface DragDone {
  readonly limits?: string[];
}

/**
 * HTML5 drag-and-drop from `dragged` (pressed on `pressed` at `a`) to `b`: dragstart (the page fills the
 * DataTransfer), pointercancel, then drag/dragenter/dragleave/dragover along the path a frame apart, drop where the
 * last dragover was accepted, and dragend.
 */
export async function html5Drag(
  dragged: HTMLElement,
  pressed: Element,
  a: ViewportPoint,
  b: ViewportPoint,
): Promise<DragDone> {
  const data = new DataTransfer();
  if (!dragEvent(dragged, 'dragstart', a, data)) {
    release(pressed, a, 'left', 1, true);
    return { limits: ['The page cancelled the drag when it started (dragstart was prevented).'] };
  }
  pressed.dispatchEvent(new PointerEvent('pointercancel', { bubbles: true, composed: true, pointerId: 1 }));
  let over: Element | undefined;
  let accepted = false;
  for (const p of pathPoints(a, b, 5)) {
    dragEvent(dragged, 'drag', p, data);
    const under = deepElementFromPoint(p.x, p.y) ?? dragged;
    if (under !== over) {
      dragEvent(under, 'dragenter', p, data);
      if (over) dragEvent(over, 'dragleave', p, data);
      over = under;
    }
    accepted = !dragEvent(under, 'dragover', p, data);
    await nextFrame();
  }
  const dropped = accepted && over !== undefined;
  if (over && dropped) dragEvent(over, 'drop', b, data);
  else if (over) dragEvent(over, 'dragleave', b, data);
  dragEvent(dragged, 'dragend', b, data);
  return dropped ? {} : { limits: ['The page did not accept the drop there (no dragover handler took it).'] };
}

/** A pointer-path drag (no HTML5 drag): see pointer.ts. */
export async function pathDrag(from: Element, compat: boolean, a: ViewportPoint, b: ViewportPoint): Promise<DragDone> {
  await pointerDrag(from, compat, a, b);
  return {};
}

/**
 * A drag from `source` (pressed at `a`) to `b`. The kind is decided after the press, as the browser does: libraries
 * such as SortableJS make an item draggable only on pointerdown.
 */
export async function dragFrom(source: Element, a: ViewportPoint, b: ViewportPoint): Promise<DragDone> {
  const pressed = deepElementFromPoint(a.x, a.y) ?? source;
  moveTo(pressed, a);
  const compat = pressDown(pressed, a, 'left', 1);
  await nextFrame();
  const dragged = draggableFrom(pressed);
  return dragged && (dragged.contains(source) || source.contains(dragged))
    ? html5Drag(dragged, pressed, a, b)
    : pathDrag(pressed, compat, a, b);
}
