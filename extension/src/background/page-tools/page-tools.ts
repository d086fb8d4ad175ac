/**
 * Runs the page tools on the tab bound to the calling thread, after the approval gate allowed them (the worker's job),
 * through the page agent injected into each frame. Browser APIs come in through `PageToolDeps` so results are testable.
 * Failures are tool results the model can read and act on, never thrown errors.
 */
import type { ToolCallResult } from '@tether/protocol';
import { errorMessage } from '@tether/protocol';
import type { z } from 'zod';
import {
  DescribeResult,
  FindResult,
  FrameSnapshot,
  ReadResult,
  WaitResult,
  type AgentCall,
  type ElementFacts,
} from '../../shared/agent-contract';
import { callRefs, dialogOf } from './action-report';
import { PageActions, parseReply, type Prepared } from './page-actions';
import type { PageToolDeps } from './page-tool-deps';
import { PAGE_READ_DEFAULT_CHARS, type PageCall, type PageToolCall } from './page-tool-specs';
import { RefTable, staleRefMessage, type RefTarget } from './ref-table';
import { mergeSnapshots, type FramePart } from './snapshot-merge';
import { StaleRefError } from './stale-ref-error';

/** Snapshot size budget, in characters, before it is cut with a note saying how to read on. */
export const SNAPSHOT_MAX_CHARS = 40_000;
/** Size of the snapshot an action or a navigation returns when the page is small enough to show whole. */
const INLINE_SNAPSHOT_CHARS = 6_000;
const LOAD_CAP_MS = 10_000;
const FIND_MAX = 30;

function text(t: string, success = true): ToolCallResult {
  return { success, content: [{ type: 'text', text: t }] };
}

/** The page tools of every tab, with each tab's refs. */
export class PageTools {
  private readonly tables = new Map<number, RefTable>();
  private readonly docs = new Map<string, string>();

  private readonly actions: PageActions;

  constructor(private readonly deps: PageToolDeps) {
    this.actions = new PageActions({
      deps,
      resolve: (tabId, ref) => this.resolve(tabId, ref),
      table: (tabId) => this.table(tabId),
      navigatedFrom: (tabId, before) => this.navigatedFrom(tabId, before),
      afterNavigation: (tabId) => this.afterNavigation(tabId),
    });
  }

  /** Forgets a closed tab's refs. */
  tabClosed(tabId: number): void {
    this.tables.delete(tabId);
    for (const key of this.docs.keys()) if (key.startsWith(`${tabId}:`)) this.docs.delete(key);
    this.actions.forget(tabId);
  }

  /** The facts of the elements a call names, in order, for its approval card; throws a stale-ref error. */
  async elementsOf(tabId: number, call: PageToolCall): Promise<ElementFacts[]> {
    const refs = callRefs(call);
    const out: ElementFacts[] = [];
    for (const ref of refs) out.push(await this.describe(tabId, ref));
    return out;
  }

  /** Outlines the element of `ref` while its card is open (best effort: the card says what it is anyway). */
  async highlight(tabId: number, ref: string | undefined, on: boolean): Promise<void> {
    if (!ref) return;
    const t = this.tables.get(tabId)?.resolve(ref);
    if (!t) return;
    await this.deps
      .callAgent(tabId, t.frameId, { op: 'highlight', ref: on ? t.local : null }, t.docId)
      .catch(() => undefined);
  }

  /** Runs an allowed call. */
  async run(tabId: number, call: PageCall): Promise<ToolCallResult> {
    try {
      return await this.dispatch(tabId, call);
    } catch (error) {
      if (error instanceof StaleRefError) return text(error.message, false);
      return text(`${call.tool} failed: ${errorMessage(error)}`, false);
    }
  }

  /** Waits for the page a new tab is loading and describes it, as a navigation's result does. */
  loaded(tabId: number): Promise<string> {
    return this.afterNavigation(tabId);
  }

  private async dispatch(tabId: number, call: PageCall): Promise<ToolCallResult> {
    switch (call.tool) {
      case 'page_read':
        if (call.args.ref) return this.readRef(tabId, call.args.ref, call.args.maxChars ?? PAGE_READ_DEFAULT_CHARS);
        return this.read(tabId, call.args.maxChars ?? PAGE_READ_DEFAULT_CHARS);
      case 'page_screenshot':
        if (call.args.ref) {
          // An element that cannot be scrolled to would leave a picture of something else: say why instead.
          const scrolled = await this.actions.act(tabId, call.args.ref, { kind: 'scroll', dy: 0 });
          if (!scrolled.success) return scrolled;
          // Cropped where it is now; an element in a frame has a box in the frame's viewport, not the tab's.
          const box =
            this.resolve(tabId, call.args.ref).frameId === 0
              ? (await this.describe(tabId, call.args.ref)).box
              : undefined;
          if (box && box.width >= 1 && box.height >= 1) return this.screenshot(tabId, box);
        }
        return this.screenshot(tabId);
      case 'page_snapshot':
        return text(await this.snapshot(tabId, call.args.from, SNAPSHOT_MAX_CHARS));
      case 'page_find':
        return text(await this.find(tabId, call.args.text));
      case 'page_wait':
        return text(await this.wait(tabId, call.args.text, call.args.textGone, call.args.ms ?? 5_000));
      case 'page_click':
        return this.actions.act(
          tabId,
          call.args.ref,
          {
            kind: 'click',
            button: call.args.button ?? 'left',
            double: call.args.double ?? false,
          },
          { dialog: dialogOf(call.args) },
        );
      case 'page_type':
        return this.actions.act(
          tabId,
          call.args.ref,
          {
            kind: 'type',
            text: call.args.text,
            submit: call.args.submit ?? false,
            clear: call.args.clear ?? false,
          },
          { dialog: dialogOf(call.args) },
        );
      case 'page_fill_form':
        return this.fill(tabId, call.args.fields);
      case 'page_select':
        return this.actions.act(tabId, call.args.ref, { kind: 'select', values: call.args.values });
      case 'page_check':
        return this.actions.act(tabId, call.args.ref, { kind: 'check', checked: call.args.checked });
      case 'page_hover':
        return this.actions.act(tabId, call.args.ref, { kind: 'hover' });
      case 'page_drag':
        return this.actions.act(tabId, call.args.from, {
          kind: 'drag',
          to: call.args.to,
          ...(call.args.position ? { position: call.args.position } : {}),
        });
      case 'page_upload':
        return this.actions.act(tabId, call.args.ref, { kind: 'upload', files: [] }, { paths: call.args.paths });
      case 'page_press':
        return this.actions.act(
          tabId,
          call.args.ref,
          { kind: 'press', key: call.args.key },
          { dialog: dialogOf(call.args) },
        );
      case 'page_scroll':
        return this.actions.act(tabId, call.args.ref, { kind: 'scroll', dy: call.args.dy ?? 0 });
      case 'page_navigate':
        return this.navigate(tabId, { url: call.args.url });
      case 'page_back':
        return this.navigate(tabId, 'back');
      case 'page_forward':
        return this.navigate(tabId, 'forward');
      case 'page_reload':
        return this.navigate(tabId, 'reload');
      case 'page_console':
        if (!this.deps.devtools) return text('page_console is not available in this browser.', false);
        return this.deps.devtools.console(tabId, call.args);
      case 'page_network':
        if (!this.deps.devtools) return text('page_network is not available in this browser.', false);
        return this.deps.devtools.network(tabId, call.args);
      case 'page_ask_user':
        // The worker routes it to the hand-over desk before any page action: reaching here is a routing bug.
        return text('page_ask_user is answered by the user in the side panel; nothing runs on the page.', false);
    }
  }

  private async read(tabId: number, maxChars: number): Promise<ToolCallResult> {
    const page = await this.deps.readPage(tabId, maxChars);
    const header = [`URL: ${page.url}`, `Title: ${page.title}`];
    if (page.byline) header.push(`Byline: ${page.byline}`);
    if (page.selection) header.push(`Selected text: ${page.selection}`);
    const note = page.truncated ? '\n\n[The text was cut at the size limit.]' : '';
    return text(`${header.join('\n')}\n\n${page.text}${note}`);
  }

  /** One element's whole value (a field) or text, with a note when even that was cut at `maxChars`. */
  private async readRef(tabId: number, ref: string, maxChars: number): Promise<ToolCallResult> {
    const t = this.resolve(tabId, ref);
    await this.deps.injectAgent(tabId);
    const r = await this.callIn(tabId, t, ref, { op: 'read', ref: t.local, maxChars }, ReadResult);
    if (r.stale) throw new StaleRefError(staleRefMessage(ref));
    if ('error' in r) return text(r.error, false);
    const cut =
      r.total > r.text.length
        ? `\n\n[Cut at ${r.text.length} of ${r.total} characters: page_read with this ref and a larger maxChars reads more.]`
        : '';
    return text(`${r.element} (${ref}), ${r.total} characters:\n${r.text}${cut}`);
  }

  private async screenshot(tabId: number, box?: ElementFacts['box']): Promise<ToolCallResult> {
    const dataUrl = await this.deps.capture(tabId, box);
    const data = dataUrl.slice(dataUrl.indexOf(',') + 1);
    return { success: true, content: [{ type: 'image', mimeType: 'image/png', data }] };
  }

  private table(tabId: number): RefTable {
    let t = this.tables.get(tabId);
    if (!t) {
      t = new RefTable();
      this.tables.set(tabId, t);
    }
    return t;
  }

  /** Notes the document a frame showed; a new one makes the old document's refs stale and frees them. */
  private seen(tabId: number, frameId: number, docId: string): void {
    const key = `${tabId}:${frameId}`;
    if (this.docs.get(key) === docId) return;
    this.docs.set(key, docId);
    this.table(tabId).forgetDocument(frameId, docId);
  }

  private resolve(tabId: number, ref: string): RefTarget {
    const t = this.tables.get(tabId)?.resolve(ref);
    if (!t) throw new StaleRefError(staleRefMessage(ref));
    return t;
  }

  /** Calls a frame's agent in the document a ref came from, parsing its reply. */
  private async callIn<T>(tabId: number, t: RefTarget, ref: string, call: AgentCall, schema: z.ZodType<T>): Promise<T> {
    const reply = await this.deps.callAgent(tabId, t.frameId, call, t.docId);
    if (reply.stale) throw new StaleRefError(staleRefMessage(ref));
    return parseReply(schema, reply.value);
  }

  private async describe(tabId: number, ref: string): Promise<ElementFacts> {
    const t = this.resolve(tabId, ref);
    const r = await this.callIn(tabId, t, ref, { op: 'describe', ref: t.local }, DescribeResult);
    if (r.stale) throw new StaleRefError(staleRefMessage(ref));
    return r.element;
  }

  /** Each frame's agent, run in parallel; frames that fail (gone, no access) are left out and counted. */
  private async everyFrame<T>(
    tabId: number,
    call: AgentCall,
    schema: z.ZodType<T>,
  ): Promise<{ frameId: number; docId: string; value: T }[]> {
    const frames = await this.deps.injectAgent(tabId);
    const replies = await Promise.all(
      frames.map(async (frameId) => {
        try {
          const reply = await this.deps.callAgent(tabId, frameId, call);
          if (reply.stale) return undefined;
          this.seen(tabId, frameId, reply.docId);
          return { frameId, docId: reply.docId, value: parseReply(schema, reply.value) };
        } catch (error) {
          // The top frame must answer; a subframe that cannot be read is reported by the merge as missing.
          if (frameId === 0) throw error;
          return undefined;
        }
      }),
    );
    return replies.filter((r) => r !== undefined);
  }

  private async snapshot(tabId: number, from: string | undefined, maxChars: number): Promise<string> {
    if (from) {
      const t = this.resolve(tabId, from);
      await this.deps.injectAgent(tabId);
      const snap = await this.callIn(
        tabId,
        t,
        from,
        { op: 'snapshot', prefix: '', from: t.local, maxChars },
        FrameSnapshot,
      );
      return mergeSnapshots([{ frameId: t.frameId, docId: t.docId, snapshot: snap }], this.table(tabId)).text;
    }
    const parts: FramePart[] = (
      await this.everyFrame(tabId, { op: 'snapshot', prefix: '', maxChars }, FrameSnapshot)
    ).map((r) => ({ frameId: r.frameId, docId: r.docId, snapshot: r.value }));
    return mergeSnapshots(parts, this.table(tabId)).text;
  }

  private async find(tabId: number, needle: string): Promise<string> {
    const found = await this.everyFrame(tabId, { op: 'find', prefix: '', text: needle, max: FIND_MAX }, FindResult);
    const table = this.table(tabId);
    const lines = found.flatMap((f) => table.rewrite(f.value.matches, f.frameId, f.docId)).slice(0, FIND_MAX);
    const total = found.reduce((n, f) => n + f.value.total, 0);
    if (total === 0) return `No element on the page matches ${JSON.stringify(needle)}.`;
    const more = total > lines.length ? `\n[${total - lines.length} more matches: search for something longer.]` : '';
    return `${total} match${total === 1 ? '' : 'es'} for ${JSON.stringify(needle)}:\n${lines.join('\n')}${more}`;
  }

  private async wait(tabId: number, appear: string | undefined, gone: string | undefined, ms: number): Promise<string> {
    const start = Date.now();
    if (appear === undefined && gone === undefined) {
      await new Promise((r) => setTimeout(r, ms));
      return `Waited ${ms} ms.`;
    }
    await this.deps.injectAgent(tabId);
    const reply = await this.deps.callAgent(tabId, 0, {
      op: 'wait',
      ...(appear === undefined ? {} : { text: appear }),
      ...(gone === undefined ? {} : { textGone: gone }),
      timeoutMs: ms,
    });
    if (reply.stale) return 'The page navigated while waiting; call page_snapshot to see it.';
    const r = parseReply(WaitResult, reply.value);
    const what = appear !== undefined ? `${JSON.stringify(appear)} to appear` : `${JSON.stringify(gone)} to go`;
    return r.met
      ? `Done: waited ${Math.round(r.waitedMs)} ms for ${what}.`
      : `Timed out after ${Date.now() - start} ms waiting for ${what}; call page_snapshot to see the page as it is.`;
  }

  private async fill(tabId: number, fields: readonly { ref: string; value: string }[]): Promise<ToolCallResult> {
    const out: string[] = [];
    const prepared: Prepared = new Map();
    for (const f of fields) {
      const r = await this.actions.act(tabId, f.ref, { kind: 'fill', value: f.value }, { prepared });
      const first = r.content[0];
      const line = first?.type === 'text' ? first.text.split('\n')[0] : '';
      if (!r.success)
        return text([...out, `${f.ref}: ${line}`, 'The remaining fields were not filled.'].join('\n'), false);
      out.push(`${f.ref}: set.`);
    }
    return text(`Filled ${fields.length} field${fields.length === 1 ? '' : 's'}.\n${out.join('\n')}`);
  }

  private async navigate(tabId: number, to: { url: string } | 'back' | 'forward' | 'reload'): Promise<ToolCallResult> {
    const before = await this.deps.tabInfo(tabId);
    await this.deps.navigate(tabId, to);
    const page = await this.afterNavigation(tabId);
    const moved = to === 'reload' || (await this.navigatedFrom(tabId, before));
    const what = typeof to === 'string' ? `Went ${to === 'reload' ? 'through a reload' : to}` : 'Opened the page';
    return text(
      moved ? `${what}.\n${page}` : `${what}, but the tab still shows ${before?.url ?? 'the same page'}.\n${page}`,
    );
  }

  /** Waits for the new page and describes it: its address, title, and its snapshot when small. */
  private async afterNavigation(tabId: number): Promise<string> {
    const loaded = await this.deps.waitForLoad(tabId, LOAD_CAP_MS);
    const info = await this.deps.tabInfo(tabId);
    const head = `Now on ${info?.url ?? 'an unknown page'}${info?.title ? ` "${info.title}"` : ''}${loaded ? '' : ' (still loading after 10 s)'}.`;
    try {
      const snap = await this.snapshot(tabId, undefined, INLINE_SNAPSHOT_CHARS);
      return `${head}\n${snap}`;
    } catch (error) {
      return `${head}\nIts snapshot could not be taken (${errorMessage(error)}); call page_snapshot.`;
    }
  }

  private async navigatedFrom(tabId: number, before: { url: string } | undefined): Promise<boolean> {
    const now = await this.deps.tabInfo(tabId);
    return before !== undefined && now !== undefined && now.url !== before.url;
  }
}
