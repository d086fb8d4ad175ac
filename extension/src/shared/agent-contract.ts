/**
 * What the worker and the page agent (content/page-agent.ts, injected into each frame of the bound tab in the
 * extension's isolated world) say to each other. The agent imports only the types, so no schema library is injected
 * into pages; the worker parses every reply with the schemas, since a reply comes out of a page it does not trust.
 *
 * Refs: the agent numbers the elements it shows as `e1`, `e2`, ... within its document and prefixes them with the
 * `prefix` the worker gives it (`''` for the top frame, `f<frameId>` for a frame), so `f7e3` is element 3 of frame 7.
 * A ref stays the same while its element stays connected; an element the page removed, or a document that replaced
 * the one a ref came from (a navigation), makes the ref stale: the agent answers `stale`, never another element.
 */
import { z } from 'zod';

/** Name of the isolated-world global the agent installs; injecting the script again keeps the first one. */
export const AGENT_GLOBAL = '__tetherPageAgent';
/** Bumped when the calls or replies change, so a page keeping an older agent (an update mid-session) gets a new one. */
export const AGENT_VERSION = 3;

/** How an action treats a dialog (`alert`, `confirm`, `prompt`) it opens: never accepted unless the model says so. */
export type DialogPolicy = { accept: boolean; promptText?: string };

/** A file the worker hands the page (the host read it from disk): its bytes as base64. */
export type AgentFile = { name: string; type: string; base64: string };

export { UPLOAD_MAX_BYTES } from './upload-limits';

/**
 * One action on an element (or on the page, for `press` without a ref and `scroll` without one), done by the agent
 * with synthetic (untrusted) events. A click or hover goes to what a user would hit at the element's visible centre
 * (see `locate`); when that is a cover (a banner, an overlay) the action is refused naming it, unless `clickCover`.
 */
export type AgentAction =
  | { kind: 'click'; button: 'left' | 'right' | 'middle'; double: boolean; clickCover?: boolean }
  | { kind: 'type'; text: string; submit: boolean; clear: boolean }
  | { kind: 'fill'; value: string }
  | { kind: 'select'; values: string[] }
  | { kind: 'check'; checked: boolean }
  | { kind: 'hover'; clickCover?: boolean }
  | { kind: 'press'; key: string }
  | { kind: 'scroll'; dy: number }
  /**
   * Drags the ref's element onto `to` (a ref in the same frame), at `position` (CSS px from the target's top-left;
   * its centre when absent): HTML5 drag-and-drop with a DataTransfer when the source is draggable, else a pointer
   * path with intermediate moves for pointer-driven lists.
   */
  | { kind: 'drag'; to: string; position?: { x: number; y: number } }
  /**
   * Gives files to the ref's element: an `<input type=file>` gets them as a user's choice (input.files, then input
   * and change); any other element gets them dropped on it (dragenter, dragover, drop with a DataTransfer).
   */
  | { kind: 'upload'; files: AgentFile[] };

/** A call to the agent; `ref` is a full ref as the worker showed it (prefix included). */
export type AgentCall =
  | { op: 'snapshot'; prefix: string; from?: string; maxChars: number }
  | { op: 'find'; prefix: string; text: string; max: number }
  | { op: 'describe'; ref: string }
  | { op: 'highlight'; ref: string | null; label?: string }
  | {
      op: 'act';
      ref?: string;
      prefix: string;
      action: AgentAction;
      dialog?: DialogPolicy;
      /**
       * The event name the main-world dialog shim (content/dialog-shim.ts) was installed with for this document; the
       * agent tells the shim when an action is in flight and hears dialogs, page errors and requests from it.
       */
      channel?: string;
      /** Mutation quiet that counts as settled, and the most the agent waits for it (bounded by the worker too). */
      quietMs: number;
      capMs: number;
      /**
       * The text on the worker's clipboard for this thread (the last `copied`), which Control+V pastes; without it
       * the agent pastes what was last copied in this document.
       */
      clipboard?: string;
    }
  | { op: 'wait'; text?: string; textGone?: string; timeoutMs: number }
  /** The whole value of a field (or the rendered text of another element) by ref, up to `maxChars`: see ReadResult. */
  | { op: 'read'; ref: string; maxChars: number }
  /**
   * Turns a ref into facts and a point for the worker's input layer (trusted input through chrome.debugger): the
   * agent scrolls the element into view (block 'center', instant), takes the centre of its first client rect that
   * shows in the viewport (clipped to it) and hit-tests that point (`elementFromPoint`, through shadow roots). See
   * LocateResult. Not queued behind a running `act`.
   */
  | { op: 'locate'; ref: string }
  /**
   * Starts watching the document for a trusted action the worker performs through chrome.debugger (queued like
   * `act`, which it replaces): `settle` then answers the ActResult `act` would, relative to `ref`'s element. One watch
   * per document at a time; a new one ends the previous. With `focus`, the element is then focused as DOM.focus
   * would (keys follow), under the watch. With `aim`, the agent first does `locate` on `ref` (one round trip for
   * both) and starts the watch only when the element can be pointed at and nothing covers it (or `coverOk`); a call
   * that starts no watch still ends the previous one. With `key` (the key the worker presses next), the reply waits,
   * as `act`'s press does, while that key would move the caret of an editor focus has only just reached. Replies
   * WatchResult.
   */
  | {
      op: 'watch';
      prefix: string;
      ref?: string;
      dialog?: DialogPolicy;
      channel?: string;
      focus?: boolean;
      aim?: { coverOk: boolean };
      key?: string;
    }
  /** Waits for the page to settle after a `watch`, and answers its ActResult (an error result when none is running). */
  | { op: 'settle'; quietMs: number; capMs: number }
  /**
   * Sets (a token) or removes (null) the attribute TARGET_MARK on `ref`'s element, so CDP can find that very element
   * (`DOM.performSearch`) for `DOM.setFileInputFiles`. Replies `{ stale: false }` or StaleRef.
   */
  | { op: 'mark'; ref: string; token: string | null };

/** The attribute `mark` sets while the worker finds an element through CDP. */
export const TARGET_MARK = 'data-tether-target';

/** Reply to `mark`. */
export const MarkResult = z.union([
  z.object({ stale: z.literal(true), error: z.string() }),
  z.object({ stale: z.literal(false) }),
]);
export type MarkResult = z.infer<typeof MarkResult>;

/** A snapshot of one frame. `iframes` says which lines stand for frames, so the worker can put their lines there. */
export const FrameSnapshot = z.object({
  url: z.string(),
  title: z.string(),
  /** One node per line, indented two spaces per level, refs written as `[ref=<prefix>eN]`. */
  lines: z.array(z.string()),
  /**
   * Lines that stand for an iframe or frame element: the line's index, the frame's resolved URL, and the element's
   * ref (not shown in the line), which `locate` turns into the frame's content-box offset for points inside it.
   */
  iframes: z.array(z.object({ line: z.number().int().nonnegative(), src: z.string(), ref: z.string().optional() })),
  /** The budget ran out: how many nodes were left out, and the ref to pass as `from` for the rest. */
  cut: z.object({ remaining: z.number().int().nonnegative(), from: z.string() }).optional(),
  /** Closed shadow roots and other parts the agent could see exist but not read. */
  unreadable: z.number().int().nonnegative(),
});
export type FrameSnapshot = z.infer<typeof FrameSnapshot>;

/** What an element is, as the approval card describes it: its role and accessible name, never text the model wrote. */
export const ElementFacts = z.object({
  role: z.string(),
  name: z.string(),
  tag: z.string(),
  /** Origin of the frame's document (a payment frame inside a shop shows the payment origin). */
  origin: z.string(),
  /** `input` type, when it is an input. */
  inputType: z.string().optional(),
  disabled: z.boolean(),
  /** Where it is in its frame's viewport, in CSS pixels, and the device pixel ratio (to crop a screenshot to it). */
  box: z
    .object({ x: z.number(), y: z.number(), width: z.number(), height: z.number(), scale: z.number().positive() })
    .optional(),
  /** Everything that makes an action on it high-risk (see shared/action-risk.ts), found in the page. */
  risk: z.object({
    password: z.boolean(),
    /** A payment field (cc-*, card number, cvc, iban), on the element or in the form a submit would send. */
    payment: z.boolean(),
    /** Text like delete, remove, close account, on the element or the form's submit button. */
    destructive: z.boolean(),
    /** A control that submits a form (submit button, Enter in a form field with `submit`). */
    submitsForm: z.boolean(),
    /** A field in a form where Enter (`page_type` with `submit`, `page_press` Enter) submits that form. */
    enterSubmits: z.boolean().optional(),
    /** The form it would submit has a password or payment field. */
    formHasSecret: z.boolean(),
    /** A link with `download`, or whose target the page declares a download. */
    download: z.boolean(),
    /** Link destination, resolved (for a card that names the origin a click goes to). */
    href: z.string().optional(),
  }),
});
export type ElementFacts = z.infer<typeof ElementFacts>;

/** A dialog the action opened, and what the agent answered. */
export const DialogReport = z.object({
  type: z.enum(['alert', 'confirm', 'prompt', 'beforeunload']),
  message: z.string(),
  accepted: z.boolean(),
});
export type DialogReport = z.infer<typeof DialogReport>;

/** The effect of an action, compact: the model sees what happened without snapshotting again. */
export const ActResult = z.object({
  /** The action could not start: a stale ref, a disabled or hidden element, a select without that option, ... */
  error: z.string().optional(),
  stale: z.boolean().optional(),
  /** The document began unloading (a navigation); the worker waits for the new page and reports it. */
  unloading: z.boolean(),
  /** Snapshot lines of the region that changed (or of the whole frame when small), bounded. */
  changed: z.array(z.string()),
  /** The focused element after the action, as a snapshot line. */
  focus: z.string().optional(),
  dialogs: z.array(DialogReport),
  /** Errors the page raised while the action ran (uncaught exceptions, unhandled rejections). */
  errors: z.array(z.string()),
  /** Milliseconds until the page was quiet (or the cap). */
  settledMs: z.number(),
  /**
   * What the synthetic action could not do that a user's input would, said plainly for the model (CSS :hover not
   * applied, no user activation, pages that check `isTrusted` ignore it); absent when nothing applies.
   */
  limits: z.array(z.string()).optional(),
  /** Text a Control+C or Control+X put on the agent's clipboard; the worker keeps it and passes it as `clipboard`. */
  copied: z.string().optional(),
});
export type ActResult = z.infer<typeof ActResult>;

/** Matches of `find`: snapshot lines with refs. */
export const FindResult = z.object({ matches: z.array(z.string()), total: z.number().int().nonnegative() });
export type FindResult = z.infer<typeof FindResult>;

/** Outcome of `wait`. */
export const WaitResult = z.object({ met: z.boolean(), waitedMs: z.number() });
export type WaitResult = z.infer<typeof WaitResult>;

/** A stale or unknown ref, said the same way by every call. */
export const StaleRef = z.object({ stale: z.literal(true), error: z.string() });
export type StaleRef = z.infer<typeof StaleRef>;

/** Reply to `describe`. */
export const DescribeResult = z.union([StaleRef, z.object({ stale: z.literal(false), element: ElementFacts })]);
export type DescribeResult = z.infer<typeof DescribeResult>;

/**
 * Reply to `read`: the element as a snapshot line names it, its text cut at `maxChars`, and the length of the whole;
 * or why it cannot be read (a password field's value never leaves the page).
 */
export const ReadResult = z.union([
  StaleRef,
  z.object({
    stale: z.literal(false),
    element: z.string(),
    text: z.string(),
    total: z.number().int().nonnegative(),
  }),
  z.object({ stale: z.literal(false), error: z.string() }),
]);
export type ReadResult = z.infer<typeof ReadResult>;

/** A point in CSS pixels relative to the viewport of the frame the agent runs in. */
export const Point = z.object({ x: z.number(), y: z.number() });
export type Point = z.infer<typeof Point>;

/**
 * Reply to `locate`. `point` is where a user would click the element, relative to its own frame's viewport: the
 * worker adds each enclosing iframe's `frame` offset (from `locate` of that iframe's ref in the parent frame) to get
 * the tab's viewport point. Locate the innermost element first, then each enclosing iframe outwards, since scrolling
 * an iframe into view in its parent does not move what is inside it, but scrolling inside may scroll the parents.
 * `covered` says what a user would hit there instead (`covered by dialog "We use cookies"`) when that is neither the
 * element, nor inside it, nor a label or ancestor that forwards a click to it; a trusted click at `point` hits it.
 * `{ stale: false, error }`: the element exists but a user cannot point at it (not rendered, no box in the viewport).
 */
export const LocateResult = z.union([
  StaleRef,
  z.object({
    stale: z.literal(false),
    facts: ElementFacts,
    point: Point,
    covered: z.string().optional(),
    /** For an iframe or frame element: its content box's top-left in this frame's viewport (points inside add it). */
    frame: Point.optional(),
  }),
  z.object({ stale: z.literal(false), error: z.string() }),
]);
export type LocateResult = z.infer<typeof LocateResult>;

/**
 * Reply to `watch`: whether the watch is running (`settle` then reports it), and with `aim`, what `locate` found; a
 * watch asked to aim runs only when `aim` has a point and no cover (or the call allowed the cover).
 */
export const WatchResult = z.union([
  StaleRef,
  z.object({ stale: z.literal(false), watching: z.boolean(), aim: LocateResult.optional() }),
]);
export type WatchResult = z.infer<typeof WatchResult>;

/** The agent's entry point, installed as `globalThis[AGENT_GLOBAL]`. */
export interface PageAgent {
  readonly version: number;
  call(call: AgentCall): unknown;
}

/** What the injected page_read script returns (content/page-read.ts, injected on its own, not through the agent); parsed, since it ran in the page's tab. */
export const PageReadResult = z.object({
  url: z.string(),
  title: z.string(),
  selection: z.string(),
  text: z.string(),
  truncated: z.boolean(),
  byline: z.string().optional(),
});
export type PageReadResult = z.infer<typeof PageReadResult>;
