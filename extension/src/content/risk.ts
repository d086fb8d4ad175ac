/**
 * What an element is, for the approval card: role, accessible name, origin and the facts that make an action on it
 * high-risk (a password or payment field, destructive wording, a form submission, a download). Only facts found in
 * the page; the worker's policy (shared/action-risk.ts) decides what they mean.
 */
import type { ElementFacts } from '../shared/agent-contract';
import { formOf, isDisabled } from './dom';
import { inputType, nameOf, roleOf } from './roles';

/** Wording of destructive actions, matched as whole words in names, values and labels (English only for now). */
export const DESTRUCTIVE_WORDS = [
  'delete',
  'remove',
  'erase',
  'destroy',
  'discard',
  'purge',
  'wipe',
  'terminate',
  'deactivate',
  'revoke',
  'unsubscribe',
  'close account',
  'close my account',
  'delete account',
  'cancel subscription',
  'cancel my subscription',
  'cancel membership',
  'cancel plan',
  'empty trash',
  'permanently',
] as const;

const DESTRUCTIVE = new RegExp(`\\b(${DESTRUCTIVE_WORDS.map((w) => w.replace(/ /g, '\\s+')).join('|')})\\b`, 'i');
/** Names, ids and labels of payment fields; `autocomplete="cc-*"` is checked separately. */
const PAYMENT =
  /card.?num|cc.?num|credit.?card|cardnumber|\bcvc\b|\bcvv\b|\bcsc\b|security.?code|expir|\biban\b|routing.?number|account.?number|sort.?code/i;

/** Whether text reads as a destructive action. */
export function isDestructiveText(text: string): boolean {
  return DESTRUCTIVE.test(text);
}

function isPassword(el: Element): boolean {
  return el instanceof HTMLInputElement && el.type === 'password';
}

/** A payment field: autocomplete cc-*, or a name, id, placeholder or label that names card data or a bank account. */
export function isPaymentField(el: Element): boolean {
  if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement)) {
    return false;
  }
  if (/(^|\s)cc-/.test(el.getAttribute('autocomplete') ?? '')) return true;
  const words = [el.name, el.id, el.getAttribute('placeholder') ?? '', el.getAttribute('aria-label') ?? ''];
  for (const label of Array.from(el.labels ?? [])) words.push(label.textContent ?? '');
  return PAYMENT.test(words.join(' '));
}

function submitControls(form: HTMLFormElement): Element[] {
  return Array.from(form.elements).filter(submits);
}

/** Whether clicking the element submits its form: a submit button, an image input, a button without type in a form. */
function submits(el: Element): boolean {
  if (el instanceof HTMLButtonElement) return el.type === 'submit' && formOf(el) !== null;
  return el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'image') && formOf(el) !== null;
}

/** Whether Enter in the field submits its form (a text-like input in a form). */
function enterSubmits(el: Element): boolean {
  return (
    el instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'file', 'submit', 'button', 'reset', 'image', 'hidden', 'range', 'color'].includes(
      el.type,
    ) &&
    formOf(el) !== null
  );
}

function formHasSecret(form: HTMLFormElement | null): boolean {
  if (!form) return false;
  return Array.from(form.elements).some((field) => isPassword(field) || isPaymentField(field));
}

function ownText(el: Element, role: string): string {
  const parts = [nameOf(el, role), el.getAttribute('title') ?? '', el.getAttribute('aria-label') ?? ''];
  if (el instanceof HTMLInputElement && (el.type === 'submit' || el.type === 'button')) parts.push(el.value);
  return parts.join(' ');
}

/** The facts of one element for the approval card. */
export function describeElement(el: Element): ElementFacts {
  const role = roleOf(el);
  const form = formOf(el);
  const submitsForm = submits(el);
  const viaEnter = enterSubmits(el);
  let destructive = isDestructiveText(ownText(el, role));
  // A form whose submit button deletes something makes its submission destructive, by button or by Enter.
  if (!destructive && form && (submitsForm || viaEnter)) {
    destructive = submitControls(form).some((control) => isDestructiveText(ownText(control, roleOf(control))));
  }
  const type = inputType(el);
  const href = (el as HTMLAnchorElement).href;
  const payment =
    isPaymentField(el) || (submitsForm && form !== null && Array.from(form.elements).some(isPaymentField));
  return {
    role,
    name: nameOf(el, role),
    tag: el.localName,
    origin: self.origin,
    ...(type ? { inputType: type } : {}),
    disabled: isDisabled(el),
    box: boxOf(el),
    risk: {
      password: isPassword(el),
      payment,
      destructive,
      submitsForm,
      ...(viaEnter ? { enterSubmits: true } : {}),
      formHasSecret: formHasSecret(form),
      download: (el instanceof HTMLAnchorElement || el instanceof HTMLAreaElement) && el.hasAttribute('download'),
      ...(typeof href === 'string' && href && (el instanceof HTMLAnchorElement || el instanceof HTMLAreaElement)
        ? { href }
        : {}),
    },
  };
}

/** The element's box in the viewport, for a screenshot cropped to it. */
function boxOf(el: Element): { x: number; y: number; width: number; height: number; scale: number } {
  const r = el.getBoundingClientRect();
  return { x: r.x, y: r.y, width: r.width, height: r.height, scale: globalThis.devicePixelRatio || 1 };
}
