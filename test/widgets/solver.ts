/**
 * The generic solver: for each step it snapshots through the tool under test, finds the ref of the line that matches
 * the step's role and name, and asks the tool to act on it, as a model would. It knows no widget; the judge that says
 * whether the task succeeded reads the page's own state through the browser's automation channel, never the tool.
 */
import type { Step, Target, WidgetState, WidgetTask } from './tasks';

/** An operation the solver asks of a tool, on refs from its latest snapshot. */
export type ToolOp =
  | { readonly op: 'click'; readonly ref: string; readonly double: boolean }
  | {
      readonly op: 'type';
      readonly ref: string;
      readonly text: string;
      readonly submit: boolean;
      readonly clear: boolean;
    }
  | { readonly op: 'press'; readonly key: string; readonly ref?: string }
  | { readonly op: 'hover'; readonly ref: string }
  | { readonly op: 'drag'; readonly from: string; readonly to: string }
  | { readonly op: 'upload'; readonly ref: string; readonly files: readonly string[] };

/** One set of page tools, driven as a model drives them. Acting rejects with the tool's own error text. */
export interface PageTools {
  /** Name for reports: `Tether (Chromium, synthetic)`, `Playwright MCP 0.0.83`, ... */
  readonly name: string;
  /** Opens `url` in the driven tab through the tool's own navigation. */
  open(url: string): Promise<void>;
  /** The snapshot text the model would read. */
  snapshot(): Promise<string>;
  /** Performs one operation; resolves with the tool's answer. */
  act(op: ToolOp): Promise<string>;
  /** The page's `widgetState()`, read through the browser's automation channel, not through the tool. */
  widgetState(): Promise<WidgetState>;
}

/** The outcome of one task on one set of tools. */
export interface TaskResult {
  readonly task: string;
  readonly passed: boolean;
  /** Why it failed: the step and the tool's words, or the judge and the state it saw. */
  readonly reason?: string;
  readonly ms: number;
  /** Characters of every snapshot the solver read. */
  readonly snapshotChars: number;
  readonly toolCalls: number;
}

/** An element a snapshot shows: a line's own, or one written inline in its text (`- row: "1" [ref=e8] | "2" ...`). */
interface Item {
  readonly role: string;
  readonly name: string;
  readonly text: string;
  readonly ref: string | undefined;
}

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"';
const unquote = (s: string): string => s.replace(/\\"/g, '"');

/** The items of one line `- role "name" [attrs] [ref=e1]: text`; inline items take the role `cell` in a row, else ''. */
function itemsOf(raw: string): Item[] {
  const m = new RegExp(`^\\s*-\\s+([\\w-]+)(?:\\s+${QUOTED})?(.*)$`).exec(raw);
  if (!m) return [];
  const role = m[1]!;
  const rest = m[3] ?? '';
  const colon = rest.search(/:(\s|$)/);
  const head = colon === -1 ? rest : rest.slice(0, colon);
  const tail = colon === -1 ? '' : rest.slice(colon + 1).trim();
  const text = tail
    .replace(/\[[^\]]*\]/g, '')
    .trim()
    .replace(/^"(.*)"$/, '$1');
  const own: Item = { role, name: unquote(m[2] ?? ''), text, ref: /\[ref=([\w-]+)\]/.exec(head)?.[1] };
  // A row writes its cells inline between ` | `, quoted or not; other lines may carry quoted items in their text.
  const inline =
    role === 'row'
      ? tail
          .split(/\s\|\s/)
          .flatMap((cell) => controlItem(cell.trim()) ?? quotedItems(cell, 'cell') ?? [cellItem(cell.trim())])
      : (quotedItems(tail, '') ?? []);
  return [own, ...inline];
}

const refIn = (attrs: string | undefined): string | undefined => /\[ref=([\w-]+)\]/.exec(attrs ?? '')?.[1];

/** The quoted items of `text` (`"Edit" [ref=e2] "Delete" [ref=e3]`) with role `role`, or undefined if it has none. */
function quotedItems(text: string, role: string): Item[] | undefined {
  const hits = [...text.matchAll(new RegExp(`${QUOTED}((?:\\s*\\[[^\\]]*\\])*)`, 'g'))];
  return hits.length === 0
    ? undefined
    : hits.map((hit) => ({ role, name: unquote(hit[1]!), text: '', ref: refIn(hit[2]) }));
}

/** The role words a snapshot writes before a control's name and ref, inside a row as on a line of its own. */
const CONTROL_ROLES =
  'textbox|searchbox|combobox|checkbox|radio|switch|spinbutton|slider|button|link|tab|menuitem|option|treeitem';

/**
 * A cell that is one control written with its role word (`textbox [active] [ref=e10]: Oslo`, an editor a grid opened
 * in the cell; `checkbox [checked] [ref=e5]`): that role, its quoted name if any, and its value as its text.
 */
function controlItem(cell: string): Item[] | undefined {
  const m = new RegExp(`^(${CONTROL_ROLES})(?:\\s+${QUOTED})?((?:\\s*\\[[^\\]]*\\])*)(?::\\s(.*))?$`).exec(cell);
  const ref = refIn(m?.[3]);
  if (!m || ref === undefined) return undefined;
  return [{ role: m[1]!, name: unquote(m[2] ?? ''), text: m[4] ?? '', ref }];
}

/** One unquoted cell of a row line (`Oslo [ref=e2]`), with its attributes. */
function cellItem(cell: string): Item {
  const m = /^(.*?)((?:\s*\[[^\]]*\])*)$/.exec(cell);
  return { role: 'cell', name: (m?.[1] ?? cell).trim(), text: '', ref: refIn(m?.[2]) };
}

/** The ref of the first element with a ref that matches `target`, or undefined. */
export function findRef(snapshot: string, target: Target): string | undefined {
  const role = target.role === undefined ? undefined : new RegExp(`^(${target.role})$`);
  const name = new RegExp(target.name);
  for (const item of snapshot.split('\n').flatMap(itemsOf)) {
    if (!item.ref || (role && !role.test(item.role))) continue;
    if (name.test(item.name) || (item.name === '' && name.test(item.text))) return item.ref;
  }
  return undefined;
}

function describe(target: Target): string {
  return `${target.role ?? 'any role'} /${target.name}/`;
}

class StepFailure extends Error {
  override readonly name = 'StepFailure';
}

const TOOL_TIMEOUT_MS = 25_000;

function bounded<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new StepFailure(`${what} did not answer in ${TOOL_TIMEOUT_MS / 1000} s`)),
      TOOL_TIMEOUT_MS,
    );
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Runs `task` on `tools` from a fresh load of its page; resolves with the judged outcome (never rejects). */
export async function runTask(task: WidgetTask, tools: PageTools, pageUrl: string): Promise<TaskResult> {
  const t0 = performance.now();
  let snapshotChars = 0;
  let toolCalls = 0;
  const snapshot = async (): Promise<string> => {
    toolCalls++;
    const text = await bounded(tools.snapshot(), 'snapshot');
    snapshotChars += text.length;
    return text;
  };
  const refOf = (text: string, target: Target, index: number): string => {
    const ref = findRef(text, target);
    if (ref === undefined) throw new StepFailure(`step ${index + 1}: no ref for ${describe(target)} in the snapshot`);
    return ref;
  };
  const act = async (op: ToolOp, step: Step, index: number): Promise<void> => {
    toolCalls++;
    try {
      await bounded(tools.act(op), op.op);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (step.op === 'click' && step.mayFail?.test(message)) return;
      throw new StepFailure(`step ${index + 1} (${op.op}): ${message.split('\n')[0]}`);
    }
  };
  const done = (passed: boolean, reason?: string): TaskResult => ({
    task: task.name,
    passed,
    ...(reason === undefined ? {} : { reason }),
    ms: Math.round(performance.now() - t0),
    snapshotChars,
    toolCalls,
  });
  try {
    toolCalls++;
    await bounded(tools.open(pageUrl), 'open');
    for (const [index, step] of task.steps.entries()) {
      const text = await snapshot();
      switch (step.op) {
        case 'click':
          await act({ op: 'click', ref: refOf(text, step.target, index), double: step.double ?? false }, step, index);
          break;
        case 'type':
          await act(
            {
              op: 'type',
              ref: refOf(text, step.target, index),
              text: step.text,
              submit: step.submit ?? false,
              clear: step.clear ?? false,
            },
            step,
            index,
          );
          break;
        case 'press': {
          const ref = step.target === undefined ? undefined : refOf(text, step.target, index);
          for (let i = 0; i < (step.times ?? 1); i++)
            await act({ op: 'press', key: step.key, ...(ref === undefined ? {} : { ref }) }, step, index);
          break;
        }
        case 'hover':
          await act({ op: 'hover', ref: refOf(text, step.target, index) }, step, index);
          break;
        case 'drag':
          await act({ op: 'drag', from: refOf(text, step.from, index), to: refOf(text, step.to, index) }, step, index);
          break;
        case 'upload':
          await act({ op: 'upload', ref: refOf(text, step.target, index), files: step.files }, step, index);
          break;
      }
    }
  } catch (error) {
    if (error instanceof StepFailure) return done(false, error.message);
    return done(false, `the tool failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
  }
  // Widgets commit on a timer or an animation frame: give them a moment before judging.
  await new Promise((r) => setTimeout(r, 150));
  const state = await tools.widgetState().catch((error: Error) => ({ unreadable: error.message }));
  return task.judge(state) ? done(true) : done(false, `judged by the widget's state: ${JSON.stringify(state)}`);
}
