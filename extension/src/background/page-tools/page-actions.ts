/**
 * One action by ref, through the input layer: trusted (the agent locates the element, the worker performs the input
 * through chrome.debugger while the agent watches) or synthetic (the agent's own `act`), then what changed. Every
 * tool that acts comes through `act`, so no tool has two code paths, and every answer says which input it was.
 */
import type { ToolCallResult } from '@tether/protocol';
import { errorMessage } from '@tether/protocol';
import type { z } from 'zod';
import { parseKey } from '../../content/keys';
import {
  ActResult,
  type AgentAction,
  type AgentCall,
  type DialogPolicy,
  LocateResult,
  MarkResult,
  type Point,
  TARGET_MARK,
  WatchResult,
} from '../../shared/agent-contract';
import { type InputMode, tabPoint, type TrustedStep } from '../input/input-layer';
import { TrustedInputUnavailable } from '../input/debugger-session';
import { doneLine, reportLines } from './action-report';
import type { AgentReply, PageToolDeps } from './page-tool-deps';
import { type RefTable, type RefTarget, staleRefMessage } from './ref-table';
import { StaleRefError } from './stale-ref-error';
import { inputLine, inputMode, trustedKind, typeSteps } from './trusted-steps';

/** The frames of one tab made ready for actions (agent injected, dialog shim installed), with the shim's channel. */
export type Prepared = Map<number, string | undefined>;

const SETTLE = { quietMs: 100, capMs: 1_500 };

/** What the page tools give the actions: their browser access, refs and the page after a navigation. */
export interface ActionContext {
  readonly deps: PageToolDeps;
  resolve(tabId: number, ref: string): RefTarget;
  table(tabId: number): RefTable;
  navigatedFrom(tabId: number, before: { url: string } | undefined): Promise<boolean>;
  afterNavigation(tabId: number): Promise<string>;
}

/** How one action is asked for. */
export interface ActOptions {
  dialog?: DialogPolicy | undefined;
  prepared?: Prepared;
  /** page_upload: paths on this computer (trusted input gives Chrome the paths; synthetic needs the bytes). */
  paths?: readonly string[];
}

function text(t: string, success = true): ToolCallResult {
  return { success, content: [{ type: 'text', text: t }] };
}

/** An action that could not start (covered, out of reach, unreadable files), said the way the model can act on. */
class CannotStartError extends Error {
  override readonly name = 'CannotStartError';
}

/**
 * A ref-less action's first agent call found another document than the one prepared before: nothing ran yet, so the
 * action prepares the new document and starts again.
 */
class DocumentChanged extends Error {
  override readonly name = 'DocumentChanged';
}

/** Runs actions for the page tools. */
export class PageActions {
  /**
   * Per `tabId:frameId`, the document an action already prepared (agent and dialog shim there) and the shim's channel.
   * Both live as long as that document does, and a new document gets a new id, so the same id needs no second look.
   */
  private readonly ready = new Map<string, { docId: string; channel: string }>();

  constructor(private readonly ctx: ActionContext) {}

  /** Forgets what was prepared in a closed tab. */
  forget(tabId: number): void {
    for (const key of this.ready.keys()) if (key.startsWith(`${tabId}:`)) this.ready.delete(key);
  }

  /** One action, then what changed: the settled region, dialogs, errors, or the new page after a navigation. */
  async act(tabId: number, ref: string | undefined, action: AgentAction, o: ActOptions = {}): Promise<ToolCallResult> {
    const before = await this.ctx.deps.tabInfo(tabId);
    const t = ref ? this.ctx.resolve(tabId, ref) : undefined;
    const key = `${tabId}:${t?.frameId ?? 0}`;
    const known = this.ready.get(key);
    // A ref names its document; a ref-less action assumes the one prepared last and starts again if it is gone.
    if (known && (t === undefined || known.docId === t.docId)) {
      try {
        return await this.actIn(tabId, t, ref, action, o, before, { docId: known.docId, channel: known.channel });
      } catch (error) {
        if (!(error instanceof DocumentChanged)) throw error;
        this.ready.delete(key);
      }
    }
    const channel = await this.prepare(tabId, t?.frameId ?? 0, o.prepared ?? new Map());
    return this.actIn(tabId, t, ref, action, o, before, { docId: t?.docId, channel });
  }

  /**
   * Notes the document whose agent answered an action's first call, prepared with `channel`; a frame without the
   * agent answers nothing, and one without the shim (no channel) is prepared again next time.
   */
  private noteReady(tabId: number, frameId: number, reply: AgentReply, channel: string | undefined): void {
    if (!reply.stale && reply.value !== undefined && channel !== undefined)
      this.ready.set(`${tabId}:${frameId}`, { docId: reply.docId, channel });
  }

  private async actIn(
    tabId: number,
    t: RefTarget | undefined,
    ref: string | undefined,
    action: AgentAction,
    o: ActOptions,
    before: { url: string } | undefined,
    doc: { docId: string | undefined; channel: string | undefined },
  ): Promise<ToolCallResult> {
    const { deps } = this.ctx;
    const frameId = t?.frameId ?? 0;
    const { channel } = doc;
    let mode = await inputMode(deps.input, tabId, before?.url, action);
    let result: ActResult | undefined;
    let docId = t?.docId;
    try {
      if (mode.trusted) {
        const watched = await this.trusted(tabId, t, ref, action, o, doc);
        if (typeof watched === 'string') return text(watched, false);
        ({ result, docId, mode } = { ...watched, mode: watched.mode ?? mode });
      } else {
        const agentAction = action.kind === 'upload' ? await this.withBytes(action, o.paths ?? []) : action;
        const call = this.actCall(tabId, agentAction, t, o, channel);
        const reply = await deps.callAgent(tabId, frameId, call, doc.docId);
        if (reply.stale) throw staleError(ref);
        docId = reply.docId;
        this.noteReady(tabId, frameId, reply, channel);
        result = parseReply(ActResult, reply.value);
      }
    } catch (error) {
      if (error instanceof CannotStartError) return text(error.message, false);
      if (error instanceof DocumentChanged) throw error;
      // The frame went away mid-action: the action navigated it (a link, a form sent). Anything else is a failure.
      if (error instanceof StaleRefError || !(await this.ctx.navigatedFrom(tabId, before))) throw error;
    }
    if (result?.stale) throw new StaleRefError(staleRefMessage(ref ?? ''));
    if (result?.error) return text(result.error, false);
    const table = this.ctx.table(tabId);
    const report = reportLines(result, (lines) =>
      docId === undefined ? [...lines] : table.rewrite(lines, frameId, docId),
    );
    // Values, options and scrolling are set the same way in both modes: only input events say which they were.
    const head = trustedKind(action) ? [doneLine(action, ref), inputLine(mode)] : [doneLine(action, ref)];
    if (!result || result.unloading || (await this.ctx.navigatedFrom(tabId, before)))
      return text([...head, ...report, await this.ctx.afterNavigation(tabId)].join('\n'));
    return text([...head, ...report].join('\n'));
  }

  /**
   * Makes sure the agent runs in the tab's frames and the dialog shim in `frameId`, once per frame for the calls that
   * share `prepared` (the fields of one fill); resolves with the shim's channel, if it could be installed.
   */
  private async prepare(tabId: number, frameId: number, prepared: Prepared): Promise<string | undefined> {
    if (prepared.has(frameId)) return prepared.get(frameId);
    if (prepared.size === 0) await this.ctx.deps.injectAgent(tabId);
    // Without the shim (a page whose main world cannot be scripted) the action still runs; dialogs then stay the page's.
    const channel = await this.ctx.deps.installDialogShim(tabId, frameId).catch(() => undefined);
    prepared.set(frameId, channel);
    return channel;
  }

  private actCall(
    tabId: number,
    action: AgentAction,
    t: RefTarget | undefined,
    o: ActOptions,
    channel: string | undefined,
  ): AgentCall {
    // A drag's target is a tab ref: the agent knows it by its own ref, and only in its own frame.
    let sent = action;
    if (action.kind === 'drag') {
      const to = this.ctx.resolve(tabId, action.to);
      if (to.frameId !== t?.frameId || to.docId !== t.docId)
        throw new CannotStartError(
          `${action.to} is in another frame than the element dragged: synthetic input can only drag within one frame.`,
        );
      sent = { ...action, to: to.local };
    }
    return {
      op: 'act',
      prefix: '',
      action: sent,
      ...(t ? { ref: t.local } : {}),
      ...(o.dialog ? { dialog: o.dialog } : {}),
      ...(channel ? { channel } : {}),
      ...SETTLE,
    };
  }

  /** The upload with the files' bytes, read by the host (synthetic input cannot give the page a path). */
  private async withBytes(action: Extract<AgentAction, { kind: 'upload' }>, paths: readonly string[]) {
    if (action.files.length > 0 || paths.length === 0) return action;
    const files = await this.ctx.deps.readFiles(paths, true);
    return { ...action, files: files.map(({ name, type, base64 }) => ({ name, type, base64 })) };
  }

  /**
   * A trusted action: watch (locating a click's or hover's target in the same call), perform, settle. Resolves with
   * the agent's report, or a string when the action could not start (the element is covered or cannot be pointed
   * at); `mode` is set when the input fell back midway.
   */
  private async trusted(
    tabId: number,
    t: RefTarget | undefined,
    ref: string | undefined,
    action: AgentAction,
    o: ActOptions,
    doc: { docId: string | undefined; channel: string | undefined },
  ): Promise<string | { result: ActResult; docId: string | undefined; mode?: InputMode }> {
    const { deps } = this.ctx;
    const input = deps.input;
    if (!input) throw new TrustedInputUnavailable('no input layer');
    const steps: TrustedStep[] = [];
    const marks: RefTarget[] = [];
    /** Whether the agent focuses the target as the watch begins (the keys then go to it). */
    let focus = false;
    /** A click or hover: the agent locates the target as its watch begins, and the step is made from that point. */
    let aimed: ((point: Point) => TrustedStep) | undefined;
    /** A type: keys or committed text, by what listens in the field the watch focused. */
    let typing: Extract<AgentAction, { kind: 'type' }> | undefined;
    const mark = async (target: RefTarget, r: string): Promise<string> => {
      const token = randomToken();
      await this.agent(tabId, target, r, { op: 'mark', ref: target.local, token }, MarkResult);
      marks.push(target);
      return `[${TARGET_MARK}="${token}"]`;
    };
    try {
      switch (action.kind) {
        case 'click': {
          need(t, 'click');
          const { button, double } = action;
          aimed = (point) => ({ kind: 'click', point, button, double });
          break;
        }
        case 'hover':
          need(t, 'hover');
          aimed = (point) => ({ kind: 'hover', point });
          break;
        case 'press':
          focus = t !== undefined;
          steps.push({ kind: 'press', chord: parseKey(action.key) });
          break;
        case 'type':
          need(t, 'type');
          focus = true;
          typing = action;
          break;
        case 'drag': {
          const target = this.ctx.resolve(tabId, action.to);
          const from = await this.point(tabId, need(t, 'drag'), ref ?? '', false);
          const to = await this.point(tabId, target, action.to, true);
          const point = action.position ? tabPoint(action.position, to.topLeft) : to.point;
          steps.push({ kind: 'drag', from: from.point, to: point });
          break;
        }
        case 'upload': {
          const target = need(t, 'upload');
          const el = await this.locate(tabId, target, ref ?? '').catch(() => undefined);
          const paths = o.paths ?? [];
          // Chrome takes any path it is given: the host checks first that each is a regular file the user can read.
          await deps.readFiles(paths, false).catch((error: unknown) => {
            throw new CannotStartError(`page_upload did not run: ${errorMessage(error)}`);
          });
          if (el && 'point' in el && !(el.facts.tag === 'input' && el.facts.inputType === 'file')) {
            const offset = await deps.frameOffset(tabId, target.frameId);
            steps.push({ kind: 'drop-files', point: tabPoint(el.point, offset), paths });
          } else steps.push({ kind: 'files', selector: await mark(target, ref ?? ''), paths });
          break;
        }
        default:
          throw new TrustedInputUnavailable(`page tools do not send ${action.kind} through the debugger`);
      }
    } catch (error) {
      if (error instanceof CannotStartError) return error.message;
      throw error;
    }
    const frameId = t?.frameId ?? 0;
    const coverOk = 'clickCover' in action && action.clickCover === true;
    const watchCall: AgentCall = {
      op: 'watch',
      prefix: '',
      ...(t ? { ref: t.local } : {}),
      ...(o.dialog ? { dialog: o.dialog } : {}),
      ...(doc.channel ? { channel: doc.channel } : {}),
      ...(focus ? { focus } : {}),
      ...(aimed ? { aim: { coverOk } } : {}),
      ...(action.kind === 'press' ? { key: action.key } : {}),
    };
    // Only a top document's listeners can be asked (alongside the watch); a field in a frame gets keys.
    const keyListeners = typing && frameId === 0 && t ? input.keyListeners(tabId, t.docId) : undefined;
    const watchReply = await deps.callAgent(tabId, frameId, watchCall, doc.docId).catch((error: unknown) => {
      keyListeners?.release();
      throw error;
    });
    if (watchReply.stale) throw staleError(ref);
    this.noteReady(tabId, frameId, watchReply, doc.channel);
    const watch = parseReply(WatchResult, watchReply.value);
    if (watch.stale) throw new StaleRefError(staleRefMessage(ref ?? ''));
    let settling = false;
    try {
      if (aimed && t) steps.push(aimed((await this.pointOf(tabId, t, ref ?? '', watch.aim, coverOk)).point));
      if (typing) steps.push(...typeSteps(typing, (await keyListeners?.listens()) ?? true));
      let lost: InputMode | undefined;
      try {
        for (const step of steps) {
          const done = await input.perform(tabId, step);
          if (done.found === false) throw new StaleRefError(staleRefMessage(ref ?? ''));
        }
      } catch (error) {
        // The user cancelled the debugging bar mid-action: what ran stays done; the result says the rest did not.
        if (!(error instanceof TrustedInputUnavailable)) throw error;
        lost = { trusted: false, why: `${error.message}; this action stopped partway, so check the page` };
      }
      settling = true;
      const reply = await deps.callAgent(tabId, frameId, { op: 'settle', ...SETTLE });
      if (reply.stale) throw new StaleRefError(staleRefMessage(ref ?? ''));
      return { result: parseReply(ActResult, reply.value), docId: reply.docId, ...(lost ? { mode: lost } : {}) };
    } catch (error) {
      if (error instanceof CannotStartError) return error.message;
      throw error;
    } finally {
      // A watch the action never settled (it stopped before its input) is ended now, so it reports into nothing.
      if (watch.watching && !settling)
        void deps.callAgent(tabId, frameId, { op: 'settle', quietMs: 0, capMs: 0 }).catch(() => undefined);
      // Unmarked after the settle, so taking the mark off is not reported as a change the action made.
      for (const m of marks)
        void deps
          .callAgent(tabId, m.frameId, { op: 'mark', ref: m.local, token: null }, m.docId)
          .catch(() => undefined);
    }
  }

  private async agent<T>(tabId: number, t: RefTarget, ref: string, call: AgentCall, schema: z.ZodType<T>): Promise<T> {
    const reply = await this.ctx.deps.callAgent(tabId, t.frameId, call, t.docId);
    if (reply.stale) throw new StaleRefError(staleRefMessage(ref));
    return parseReply(schema, reply.value);
  }

  private locate(tabId: number, t: RefTarget, ref: string): Promise<LocateResult> {
    return this.agent(tabId, t, ref, { op: 'locate', ref: t.local }, LocateResult);
  }

  /** The tab point to act on for a ref (its element's visible centre), and its box's top-left; refuses a covered one. */
  private async point(tabId: number, t: RefTarget, ref: string, coverOk: boolean) {
    return this.pointOf(tabId, t, ref, await this.locate(tabId, t, ref), coverOk);
  }

  /** `point` from what the agent located (a `locate` reply, or the one an aimed `watch` carried). */
  private async pointOf(
    tabId: number,
    t: RefTarget,
    ref: string,
    r: LocateResult | undefined,
    coverOk: boolean,
  ): Promise<{ point: Point; topLeft: Point }> {
    if (!r || r.stale) throw new StaleRefError(staleRefMessage(ref));
    if ('error' in r) throw new CannotStartError(r.error);
    if (r.covered && !coverOk)
      throw new CannotStartError(
        `${ref} is ${r.covered}, so a click there would hit that instead. Close or answer it first (look for its buttons in page_snapshot), then try again.`,
      );
    const offset = await this.ctx.deps.frameOffset(tabId, t.frameId);
    const box = r.facts.box;
    return { point: tabPoint(r.point, offset), topLeft: tabPoint(box ? { x: box.x, y: box.y } : r.point, offset) };
  }
}

/** A stale first reply: the ref's document is gone, or (no ref) the document prepared before is. */
function staleError(ref: string | undefined): Error {
  return ref ? new StaleRefError(staleRefMessage(ref)) : new DocumentChanged();
}

function need(t: RefTarget | undefined, kind: string): RefTarget {
  if (!t) throw new CannotStartError(`page_${kind} needs a ref: call page_snapshot and pass the ref of the element.`);
  return t;
}

function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Parses what a page's agent returned; a reply of the wrong shape is an error naming the extension, not the page. */
export function parseReply<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new Error(
      'The page agent answered something unexpected (the page may have replaced it); reload the page and try again.',
    );
  return r.data;
}
