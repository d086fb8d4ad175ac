/**
 * `wait`: resolves when a text appears in (or disappears from) the frame's rendered text, checked on mutations
 * rather than by polling, or at the timeout with `met: false`.
 */
import type { WaitResult } from '../shared/agent-contract';

/** The longest wait the agent accepts, whatever the worker asks. */
export const WAIT_MAX_MS = 30_000;
/** Rendered text is read at most this often while the page keeps mutating (innerText lays the page out). */
const CHECK_EVERY_MS = 50;

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

function innerText(el: Element): string {
  // biome-ignore lint/performance/useDomNodeTextContent: innerText is the rendered text (no hidden nodes or scripts).
  return el instanceof HTMLElement ? el.innerText : (el.textContent ?? '');
}

/** The frame's rendered text; innerText stops at shadow roots, so theirs is added. */
function renderedText(shadowRoots: readonly ShadowRoot[]): string {
  let text = innerText(document.body ?? document.documentElement);
  for (const root of shadowRoots) for (const child of Array.from(root.children)) text += ` ${innerText(child)}`;
  return normalise(text);
}

/** Waits for `text` to be shown and `textGone` not to be (either may be absent), up to `timeoutMs`. */
export function waitForText(
  text: string | undefined,
  textGone: string | undefined,
  timeoutMs: number,
  shadowRoots: readonly ShadowRoot[],
): Promise<WaitResult> {
  const started = performance.now();
  const want = text ? normalise(text) : '';
  const gone = textGone ? normalise(textGone) : '';
  const met = (): boolean => {
    if (!want && !gone) return true;
    const shown = renderedText(shadowRoots);
    return (!want || shown.includes(want)) && (!gone || !shown.includes(gone));
  };
  const elapsed = (): number => Math.round(performance.now() - started);
  if (met()) return Promise.resolve({ met: true, waitedMs: elapsed() });
  return new Promise((resolve) => {
    let throttle: ReturnType<typeof setTimeout> | undefined;
    const finish = (ok: boolean): void => {
      observer.disconnect();
      clearTimeout(deadline);
      if (throttle !== undefined) clearTimeout(throttle);
      resolve({ met: ok, waitedMs: elapsed() });
    };
    const check = (): void => {
      throttle = undefined;
      if (met()) finish(true);
    };
    const observer = new MutationObserver(() => {
      throttle ??= setTimeout(check, CHECK_EVERY_MS);
    });
    const options = { subtree: true, childList: true, characterData: true, attributes: true };
    observer.observe(document, options);
    for (const root of shadowRoots) observer.observe(root, options);
    const deadline = setTimeout(() => finish(met()), Math.max(0, Math.min(timeoutMs, WAIT_MAX_MS)));
  });
}
