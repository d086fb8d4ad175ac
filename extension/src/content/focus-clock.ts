/**
 * When focus last moved, so that a caret move the agent makes in an editable region never comes sooner after the
 * focus than a user's key could. Editors tell the browser's own caret reset on focus (Firefox puts the caret at an
 * editable region's start when it gains focus) from a user's move by time alone: ProseMirror takes a collapsed caret
 * at the document's start within 200 ms of focus for that reset and puts its own selection back. In Firefox ESR 140
 * the agent pressed Control+Home 122 ms after the click that focused a TipTap editor; the editor put its caret back at
 * the end, so the Shift+arrows after it selected nothing and Control+B had nothing to bold (1 run in 4). A user's
 * first key comes well after that window, so the agent waits out what is left of it, and only then.
 */

/** How long after focus a caret move in an editable region may come: past the 200 ms such editors allow. */
export const FOCUS_SETTLE_MS = 300;

/** How long to wait before a move in `target`: what is left of FOCUS_SETTLE_MS since focus moved into it. */
export function settleWaitMs(focusedAt: number | undefined, now: number): number {
  if (focusedAt === undefined) return 0;
  return Math.min(FOCUS_SETTLE_MS, Math.max(0, focusedAt + FOCUS_SETTLE_MS - now));
}

/** Watches `focusin` in one document from its creation on; focus moved before that counts as long ago. */
export class FocusClock {
  private last: { readonly el: Element; readonly at: number } | undefined;

  constructor(doc: Document) {
    doc.addEventListener(
      'focusin',
      (event) => {
        // The element itself, not the shadow host the event is retargeted to at the document.
        const el = event.composedPath()[0];
        if (el instanceof Element) this.last = { el, at: performance.now() };
      },
      { capture: true, passive: true },
    );
  }

  /** Resolves once `target` (or the element in it, or around it, that took focus) has had focus FOCUS_SETTLE_MS. */
  settled(target: Element): Promise<void> | undefined {
    const last = this.last;
    const related = last && (last.el === target || last.el.contains(target) || target.contains(last.el));
    const wait = settleWaitMs(related ? last.at : undefined, performance.now());
    if (wait === 0) return undefined;
    return new Promise((resolve) => setTimeout(resolve, wait));
  }
}
