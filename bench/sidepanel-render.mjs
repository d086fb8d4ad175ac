// How the side panel renders a long streamed answer, measured in the page: shared by the side-panel and daemon benches.

/**
 * Renders a `/stream N` answer (N: `deltas`) in a new thread of the side panel `panel` (a Playwright page) and measures it: from
 * the first text node of the answer to the frame after the completed answer is in the DOM, the longest main-thread
 * task meanwhile, and whether every delta is there. `sendPrompt` is the tests' helper that sends a prompt.
 */
export async function renderedStream(panel, sendPrompt, deltas) {
  // Each run answers in a new thread, so every run renders into the same (empty) transcript.
  await panel.locator('button[data-action="new-thread"]').click();
  await panel.waitForFunction(() => document.querySelectorAll('.transcript > *').length === 0);
  await panel.evaluate(() => {
    const b = (window.__bench = { longest: 0, t0: 0, t1: 0, done: false });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) b.longest = Math.max(b.longest, e.duration);
    }).observe({ type: 'longtask' });
    const answers = () => document.querySelectorAll('.transcript .item.agentMessage').length;
    const before = answers();
    const list = document.querySelector('.transcript');
    const finish = (observer) => {
      observer.disconnect();
      requestAnimationFrame(() => {
        b.t1 = performance.now();
        b.done = true;
      });
    };
    // The answer completes either as a new (markdown) element or, when long, by a class change on the streamed one.
    new MutationObserver((records, observer) => {
      for (const r of records) {
        if (r.type === 'attributes' && r.target.matches('.item.agentMessage.completed') && answers() > before)
          return finish(observer);
        for (const node of r.addedNodes) {
          if (
            !b.t0 &&
            node.nodeType === Node.TEXT_NODE &&
            node.parentElement?.closest('.item.agentMessage') &&
            answers() > before
          )
            b.t0 = performance.now();
          if (node instanceof HTMLElement && node.matches('.item.agentMessage.completed') && answers() > before)
            return finish(observer);
        }
      }
    }).observe(list, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  });
  await sendPrompt(panel, `/stream ${deltas}`);
  await panel.waitForFunction(() => window.__bench.done, undefined, { timeout: 120_000, polling: 500 });
  const b = await panel.evaluate(() => window.__bench);
  const text = await panel.locator('.transcript .item.agentMessage .body').last().textContent();
  const whole = text.trim().split(/\s+/).length === deltas;
  return { ms: b.t1 - b.t0, longestTaskMs: b.longest, whole };
}
