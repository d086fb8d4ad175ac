/**
 * The page tools' browser half, bound to chrome.scripting and chrome.tabs (the same calls in Firefox): scripts are
 * injected on demand into the tab the user approved, never declared as content scripts, and run in the extension's
 * isolated world, except the small dialog shim that must replace the page's own alert/confirm/prompt.
 */
import pageAgentScript from '../../content/page-agent.ts?iife';
import pageReadScript from '../../content/page-read.ts?iife';
import { z } from 'zod';
import { AGENT_GLOBAL, AGENT_VERSION, type AgentCall, type ElementFacts, Point } from '../../shared/agent-contract';
import type { InputLayer } from '../input/input-layer';
import type { DevtoolsTools } from '../devtools/devtools-tools';
import { installDialogShim } from '../../content/dialog-shim';
import { PageReadResult } from '../../shared/agent-contract';
import type { AgentReply, PageToolDeps } from './page-tool-deps';

const Reply = z.union([
  z.object({ docId: z.string(), stale: z.literal(true) }),
  z.object({ docId: z.string(), stale: z.literal(false), value: z.unknown() }),
]);

/**
 * Runs in the frame's isolated world: names the document once (so the worker can tell a new one from the one a ref
 * came from), then calls the agent. Self-contained, since it is serialised into the page.
 */
function callInFrame(call: AgentCall, expectDoc: string | null, agentGlobal: string): unknown {
  const g = globalThis as unknown as Record<string, unknown> & { __tetherDocId?: string };
  if (!g.__tetherDocId) {
    // crypto.randomUUID needs a secure context; getRandomValues does not.
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    g.__tetherDocId = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  }
  const docId = g.__tetherDocId;
  if (expectDoc !== null && expectDoc !== docId) return { docId, stale: true };
  const agent = g[agentGlobal] as { call(c: AgentCall): unknown } | undefined;
  if (!agent) return { docId, stale: false, value: undefined };
  return Promise.resolve(agent.call(call)).then((value) => ({ docId, stale: false, value }));
}

/** Runs in the frame's isolated world: whether this version of the agent is installed there. */
function hasAgent(agentGlobal: string, version: number): boolean {
  return (globalThis as unknown as Record<string, { version?: number } | undefined>)[agentGlobal]?.version === version;
}

/** The event name the dialog shim and the agent share in every page (random per worker, so not a fixed page API). */
const dialogChannel = `tether-dialog-${Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('')}`;

/** Hooks the frame's main world (or attaches to the hook already there) and resolves with the channel to talk to it. */
export async function installShim(tabId: number, frameId: number): Promise<string> {
  await chrome.scripting.executeScript({
    target: { tabId, frameIds: [frameId] },
    world: 'MAIN',
    func: installDialogShim,
    args: [dialogChannel],
  });
  return dialogChannel;
}

/** Resolves true when `tabId` finishes loading, false after `capMs`. */
function waitForLoad(tabId: number, capMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let started = false;
    const finish = (loaded: boolean): void => {
      clearTimeout(cap);
      clearTimeout(grace);
      chrome.tabs.onUpdated.removeListener(listener);
      resolve(loaded);
    };
    const listener = (id: number, info: chrome.tabs.OnUpdatedInfo): void => {
      if (id !== tabId) return;
      if (info.status === 'loading') started = true;
      if (info.status === 'complete') finish(true);
    };
    chrome.tabs.onUpdated.addListener(listener);
    const cap = setTimeout(() => finish(false), capMs);
    // A navigation that was over before we listened (or stayed in the document) sends no event: look once.
    const grace = setTimeout(() => {
      void chrome.tabs.get(tabId).then(
        (t) => {
          if (!started && t.status === 'complete') finish(true);
        },
        () => finish(false),
      );
    }, 300);
  });
}

/** A PNG data URL cut down to `box` (CSS pixels, scaled by its device pixel ratio), within the picture's bounds. */
async function crop(dataUrl: string, box: NonNullable<ElementFacts['box']>): Promise<string> {
  // Decoded by hand: the extension's own policy (connect-src 'self') refuses fetch() of a data: URL.
  const encoded = atob(dataUrl.slice(dataUrl.indexOf(',') + 1));
  const png = Uint8Array.from(encoded, (c) => c.charCodeAt(0));
  const image = await createImageBitmap(new Blob([png], { type: 'image/png' }));
  const x = Math.max(0, Math.floor(box.x * box.scale));
  const y = Math.max(0, Math.floor(box.y * box.scale));
  const width = Math.min(image.width - x, Math.ceil(box.width * box.scale));
  const height = Math.min(image.height - y, Math.ceil(box.height * box.scale));
  if (width < 1 || height < 1) return dataUrl;
  const canvas = new OffscreenCanvas(width, height);
  canvas.getContext('2d')?.drawImage(image, x, y, width, height, 0, 0, width, height);
  const bytes = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:image/png;base64,${btoa(binary)}`;
}

/** The isolated-world key under which a frame keeps the probes it listens for (see frameOffset). */
const PROBES = '__tetherFrameProbes';

/**
 * Runs in every frame's isolated world: listens for the message a child frame posts with `nonce`, and keeps the
 * content-box offset of the iframe element it came from (its `contentWindow` is the message's source, which holds
 * across origins), scrolling that iframe into view first when none of it shows.
 */
function listenForProbe(nonce: string, key: string): void {
  const g = globalThis as unknown as Record<string, Map<string, { x: number; y: number } | null>>;
  const probes = g[key] ?? new Map<string, { x: number; y: number } | null>();
  g[key] = probes;
  probes.set(nonce, null);
  const listener = (event: MessageEvent): void => {
    if (event.data !== nonce) return;
    window.removeEventListener('message', listener, true);
    for (const frame of Array.from(document.querySelectorAll('iframe, frame'))) {
      if ((frame as HTMLIFrameElement).contentWindow !== event.source) continue;
      let r = frame.getBoundingClientRect();
      if (r.bottom < 0 || r.right < 0 || r.top > innerHeight || r.left > innerWidth) {
        frame.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
        r = frame.getBoundingClientRect();
      }
      const style = getComputedStyle(frame);
      probes.set(nonce, {
        x: r.left + frame.clientLeft + Number.parseFloat(style.paddingLeft || '0'),
        y: r.top + frame.clientTop + Number.parseFloat(style.paddingTop || '0'),
      });
    }
  };
  window.addEventListener('message', listener, true);
  setTimeout(() => window.removeEventListener('message', listener, true), 2_000);
}

/** Runs in the child frame's isolated world: tells its parent which frame it is. */
function postProbe(nonce: string): void {
  if (window.parent !== window) window.parent.postMessage(nonce, '*');
}

/** Runs in every frame: the offset the probe found there, if this frame is the child's parent. */
function takeProbe(nonce: string, key: string): { x: number; y: number } | null {
  const probes = (globalThis as unknown as Record<string, Map<string, { x: number; y: number } | null> | undefined>)[
    key
  ];
  const found = probes?.get(nonce) ?? null;
  probes?.delete(nonce);
  return found;
}

/**
 * The offset of a frame's viewport in the tab's: its parent finds the iframe element the frame's window is (a message
 * posted from the frame names it), adds that element's content-box offset, and so on up to the top frame. Each hop
 * asks every frame which one heard the message. webNavigation.getAllFrames would name the parent frame, but not which
 * of its iframe elements holds the child, so the message is needed anyway; knowing the parent would only narrow
 * where the listener runs, at the cost of a second path for a browser without the permission.
 */
async function frameOffset(tabId: number, frameId: number): Promise<{ x: number; y: number }> {
  let offset = { x: 0, y: 0 };
  for (let hop = 0, child = frameId; child !== 0; hop++) {
    if (hop > 16) throw new Error('The frame is nested too deeply to find where it is on the page.');
    const nonce = `tether-probe-${Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('')}`;
    await chrome.scripting.executeScript({
      target: { tabId, allFrames: true },
      func: listenForProbe,
      args: [nonce, PROBES],
    });
    await chrome.scripting.executeScript({ target: { tabId, frameIds: [child] }, func: postProbe, args: [nonce] });
    // The message is delivered after the poster's task ends: give it a moment before asking who heard it.
    let parent: { frameId: number; at: { x: number; y: number } } | undefined;
    for (let attempt = 0; attempt < 20 && !parent; attempt++) {
      if (attempt > 0) await new Promise((r) => setTimeout(r, 10));
      const results = await chrome.scripting.executeScript({
        target: { tabId, allFrames: true },
        func: takeProbe,
        args: [nonce, PROBES],
      });
      for (const r of results) {
        const at = Point.safeParse(r.result);
        if (at.success) parent = { frameId: r.frameId, at: at.data };
      }
    }
    if (!parent) throw new Error('The frame of this element could not be found on the page (it may have gone).');
    offset = { x: offset.x + parent.at.x, y: offset.y + parent.at.y };
    child = parent.frameId;
  }
  return offset;
}

/** The page tools' browser access; `readFiles` and `input` come from the worker's host link and the debugger. */
export function chromePageTools(extra: {
  readFiles: PageToolDeps['readFiles'];
  input?: InputLayer;
  devtools?: DevtoolsTools;
}): PageToolDeps {
  return {
    frameOffset,
    readFiles: (paths, bytes) => extra.readFiles(paths, bytes),
    ...(extra.input ? { input: extra.input } : {}),
    ...(extra.devtools ? { devtools: extra.devtools } : {}),
    readPage: async (tabId, maxChars) => {
      await chrome.scripting.executeScript({ target: { tabId }, files: [pageReadScript] });
      const [first] = await chrome.scripting.executeScript({
        target: { tabId },
        func: (max: number) => (globalThis as { __tetherReadPage?: (m: number) => unknown }).__tetherReadPage?.(max),
        args: [maxChars],
      });
      const page = PageReadResult.safeParse(first?.result);
      if (!page.success)
        throw new Error('The page could not be read (it may block extensions, like the browser store).');
      return page.data;
    },
    listTabs: async (tabId) => {
      const tab = await chrome.tabs.get(tabId);
      const tabs = await chrome.tabs.query({ windowId: tab.windowId });
      return tabs.map((t) => ({ id: t.id ?? -1, title: t.title ?? '', url: t.url ?? '', active: t.active }));
    },
    capture: async (tabId, box) => {
      const tab = await chrome.tabs.get(tabId);
      // Bringing the tab to front would take it from under the user: the tool says so and what works instead.
      if (!tab.active)
        throw new Error(
          `tab ${tabId} is in the background, and the browser captures only the tab in front of its window. It was not brought to front (the user may be working there): page_snapshot and page_read work on background tabs, or ask the user to show the tab and call page_screenshot again.`,
        );
      const shot = await chrome.tabs.captureVisibleTab(tab.windowId, { format: 'png' });
      return box ? crop(shot, box) : shot;
    },
    injectAgent: async (tabId) => {
      // Most calls find the agent already running: a tiny probe, and the ~40 KB file is parsed only where it lacks.
      const probe = { func: hasAgent, args: [AGENT_GLOBAL, AGENT_VERSION] as [string, number] };
      let found: chrome.scripting.InjectionResult<boolean>[];
      try {
        found = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, ...probe });
      } catch {
        // Chrome fails the whole call when one frame may not be scripted: read the top frame alone then.
        found = await chrome.scripting.executeScript({ target: { tabId }, ...probe });
      }
      const frames = [...new Set(found.map((r) => r.frameId))].sort((a, b) => a - b);
      const missing = [...new Set(found.filter((r) => r.result !== true).map((r) => r.frameId))];
      const gone = new Set<number>();
      await Promise.all(
        missing.map((frameId) =>
          chrome.scripting
            .executeScript({ target: { tabId, frameIds: [frameId] }, files: [pageAgentScript] })
            .catch((error: unknown) => {
              // The top frame must run the agent; a subframe that went away since the probe is left out.
              if (frameId === 0) throw error;
              gone.add(frameId);
            }),
        ),
      );
      return frames.filter((f) => !gone.has(f));
    },
    callAgent: async (tabId, frameId, call, expectDoc): Promise<AgentReply> => {
      const [first] = await chrome.scripting.executeScript({
        target: { tabId, frameIds: [frameId] },
        func: callInFrame,
        args: [call, expectDoc ?? null, AGENT_GLOBAL],
      });
      const reply = Reply.safeParse(first?.result);
      if (!reply.success) throw new Error('The page did not answer (it may have navigated or block extensions).');
      return reply.data;
    },
    installDialogShim: installShim,
    tabInfo: async (tabId) => {
      try {
        const t = await chrome.tabs.get(tabId);
        return { url: t.url ?? t.pendingUrl ?? '', title: t.title ?? '' };
      } catch {
        return undefined;
      }
    },
    navigate: async (tabId, to) => {
      if (to === 'back') await chrome.tabs.goBack(tabId);
      else if (to === 'forward') await chrome.tabs.goForward(tabId);
      else if (to === 'reload') await chrome.tabs.reload(tabId);
      else await chrome.tabs.update(tabId, { url: to.url });
    },
    waitForLoad,
  };
}
