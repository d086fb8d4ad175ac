/**
 * The widget tasks, written once as data: the page, the goal in words, the steps a model would take in terms of what
 * it reads in a snapshot (a role and a name to find a ref by) and the tool-neutral operation to run on it, and the
 * judge, which reads the widget's own state (`window.widgetState()` on each page) to tell whether the goal was met.
 */

/** What a step acts on: the first snapshot line whose role matches `role` and whose name or text matches `name`. */
export interface Target {
  /** A regular expression source for the line's role (`button`, `menuitem`, `link|generic`); any role when absent. */
  readonly role?: string;
  /** A regular expression source for the line's quoted name, or its text after the colon. */
  readonly name: string;
}

/** One operation, as a model would ask any page tool for it. */
export type Step =
  | { readonly op: 'click'; readonly target: Target; readonly double?: boolean; readonly mayFail?: RegExp }
  | {
      readonly op: 'type';
      readonly target: Target;
      readonly text: string;
      readonly submit?: boolean;
      /** Replace the field's value rather than type after it (a field that already holds a value to change). */
      readonly clear?: boolean;
    }
  | { readonly op: 'press'; readonly key: string; readonly target?: Target; readonly times?: number }
  | { readonly op: 'hover'; readonly target: Target }
  | { readonly op: 'drag'; readonly from: Target; readonly to: Target }
  | { readonly op: 'upload'; readonly target: Target; readonly files: readonly string[] };

/** The state a page reports; each page defines its own fields. */
export type WidgetState = Readonly<Record<string, unknown>>;

/** One widget task. */
export interface WidgetTask {
  /** Stable name, used in expected-failure lists and the benchmark's table. */
  readonly name: string;
  /** The page under test/widgets/pages/ (without `.html`). */
  readonly page: string;
  /** The widget and its library, for the report. */
  readonly widget: string;
  /** What the model is asked to do. */
  readonly goal: string;
  readonly steps: readonly Step[];
  /** Whether the widget's state shows the goal met; the state is reported beside a failure. */
  readonly judge: (state: WidgetState) => boolean;
}

const str = (value: unknown): string => JSON.stringify(value);

/** Any role but a heading: what a model picks when a heading carries the same name as the control under it. */
const NOT_HEADING = '(?!heading$)[\\w-]*';

/** Every task of the suite, in the order they run. */
export const TASKS: readonly WidgetTask[] = [
  {
    name: 'pointerdown-menu',
    page: 'radix-menu',
    widget: 'Radix UI DropdownMenu (React), opens on pointerdown',
    goal: 'Archive the document from the Actions menu.',
    steps: [
      { op: 'click', target: { role: 'button', name: '^Actions$' } },
      { op: 'click', target: { role: 'menuitem', name: '^Archive$' } },
    ],
    judge: (s) => s['chosen'] === 'Archive',
  },
  {
    name: 'hover-menu',
    page: 'hover-menu',
    widget: 'Pure.css menu, submenu on CSS :hover',
    goal: 'Open Lamps from the Products menu.',
    steps: [
      { op: 'hover', target: { role: 'link', name: '^Products' } },
      { op: 'click', target: { role: 'link', name: '^Lamps$' } },
    ],
    judge: (s) => s['hash'] === '#lamps',
  },
  {
    name: 'flatpickr-day',
    page: 'datepicker',
    widget: 'flatpickr date picker, days are spans',
    goal: 'Set the departure date to 21 March 2026.',
    steps: [
      { op: 'click', target: { role: 'textbox', name: 'Departure date' } },
      { op: 'click', target: { name: '^(March 21, 2026|21)$' } },
    ],
    judge: (s) => str(s['departure']) === str(['2026-03-21']),
  },
  {
    name: 'jquery-datepicker-next',
    page: 'datepicker',
    widget: 'jQuery UI datepicker, Next is an <a> without href',
    goal: 'Set the return date to 14 April 2026.',
    steps: [
      { op: 'click', target: { role: 'textbox', name: 'Return date' } },
      { op: 'click', target: { name: '^Next' } },
      { op: 'click', target: { role: NOT_HEADING, name: '^14$' } },
    ],
    judge: (s) => s['return'] === '2026-04-14',
  },
  {
    name: 'slider-keys',
    page: 'jquery-ui',
    widget: 'jQuery UI slider, reads keyCode',
    goal: 'Raise the volume from 50 to 53 with the arrow keys.',
    steps: [{ op: 'press', key: 'ArrowRight', times: 3, target: { role: NOT_HEADING, name: '^Volume$' } }],
    judge: (s) => s['volume'] === 53,
  },
  {
    name: 'spinner-keys',
    page: 'jquery-ui',
    widget: 'jQuery UI spinner, reads keyCode',
    goal: 'Raise the quantity from 5 to 7 with the arrow keys.',
    steps: [{ op: 'press', key: 'ArrowUp', times: 2, target: { role: 'spinbutton|textbox', name: '^Quantity' } }],
    judge: (s) => s['quantity'] === 7,
  },
  {
    name: 'autocomplete',
    page: 'jquery-ui',
    widget: 'jQuery UI autocomplete',
    goal: 'Choose Norway as the country from the suggestions.',
    steps: [
      { op: 'type', target: { role: 'textbox|combobox', name: '^Country' }, text: 'Nor' },
      { op: 'click', target: { name: '^Norway$' } },
    ],
    judge: (s) => s['chosen'] === 'Norway' && s['country'] === 'Norway',
  },
  {
    name: 'tabs-inner-link',
    page: 'jquery-ui',
    widget: 'jQuery UI tabs, listens on the <a> inside li[role=tab]',
    goal: 'Show the Shipping tab.',
    steps: [{ op: 'click', target: { role: 'tab|link', name: '^Shipping$' } }],
    judge: (s) => s['tab'] === 1,
  },
  {
    name: 'word-link',
    page: 'plain-traps',
    widget: 'a span with a click handler inside a paragraph',
    goal: 'Open the glossary entry.',
    steps: [{ op: 'click', target: { name: '^glossary$' } }],
    judge: (s) => s['glossary'] === 1,
  },
  {
    name: 'trusted-only-button',
    page: 'plain-traps',
    widget: 'a button that checks event.isTrusted',
    goal: 'Continue to the tables.',
    steps: [{ op: 'click', target: { role: 'button', name: '^Continue to tables$' } }],
    judge: (s) => s['trusted'] === 1,
  },
  {
    name: 'cookie-cover',
    page: 'cover',
    widget: 'a cookie banner covering the button',
    goal: 'Subscribe, without clicking through the cookie banner.',
    steps: [
      // A user's click lands on the banner: the tool should say so (or click the banner), never reach the button.
      {
        op: 'click',
        target: { role: 'button', name: '^Subscribe$' },
        mayFail: /cover|intercept|obscur|hidden|behind/i,
      },
      { op: 'click', target: { role: 'button', name: '^Accept all$' } },
      { op: 'click', target: { role: 'button', name: '^Subscribe$' } },
    ],
    judge: (s) => s['throughCover'] === 0 && s['subscribed'] === 1,
  },
  {
    name: 'rich-text-bold',
    page: 'tiptap',
    widget: 'TipTap 3 (ProseMirror) editor',
    goal: 'Make the word "twice" bold.',
    steps: [
      { op: 'click', target: { role: 'textbox', name: '^Notes$' } },
      { op: 'press', key: 'Control+Home' },
      { op: 'press', key: 'ArrowRight', times: 11 },
      { op: 'press', key: 'Shift+ArrowRight', times: 5 },
      { op: 'press', key: 'Control+b' },
    ],
    judge: (s) => String(s['html']).includes('<strong>twice</strong>') && !String(s['html']).includes('<strong>Tides'),
  },
  {
    name: 'code-editor-type',
    page: 'code-editor',
    widget: 'CodeMirror 5, typing through its hidden textarea',
    goal: 'Write "tide = 3" in the code editor.',
    steps: [{ op: 'type', target: { role: 'textbox', name: '^Code$' }, text: 'tide = 3' }],
    judge: (s) => s['value'] === 'tide = 3',
  },
  {
    name: 'grid-cell-edit',
    page: 'data-grid',
    widget: 'Tabulator 6 grid, editor on double-click',
    goal: "Change North Pier's city from Oslo to Bergen.",
    steps: [
      { op: 'click', target: { role: 'gridcell|cell', name: '^Oslo$' }, double: true },
      // The editor opens holding the old value, which a model reads in the snapshot and replaces.
      { op: 'type', target: { role: 'textbox', name: '' }, text: 'Bergen', submit: true, clear: true },
    ],
    judge: (s) => String((s['rows'] as unknown[] | undefined)?.[0]) === 'North Pier: Bergen',
  },
  {
    name: 'sortable-html5',
    page: 'sortable',
    widget: 'SortableJS list, HTML5 drag and drop',
    goal: 'Move Boots below Torch in the packing list.',
    steps: [{ op: 'drag', from: { name: '^Boots$' }, to: { name: '^Torch$' } }],
    judge: (s) => Array.isArray(s['native']) && s['native'].indexOf('boots') > s['native'].indexOf('map'),
  },
  {
    name: 'sortable-pointer',
    page: 'sortable',
    widget: 'SortableJS list, pointer-driven (forceFallback)',
    goal: 'Move Bergen below Alesund in the route.',
    steps: [{ op: 'drag', from: { name: '^Bergen$' }, to: { name: '^Alesund$' } }],
    judge: (s) => Array.isArray(s['pointer']) && s['pointer'].indexOf('bergen') > s['pointer'].indexOf('stavanger'),
  },
  {
    name: 'file-input',
    page: 'upload',
    widget: 'a file input',
    goal: 'Attach tide-notes.txt.',
    steps: [{ op: 'upload', target: { name: '^Attachment' }, files: ['tide-notes.txt'] }],
    judge: (s) => str(s['attached']) === str(['tide-notes.txt']),
  },
  {
    name: 'drop-zone',
    page: 'upload',
    widget: 'Dropzone 6 drop area',
    goal: 'Give stations.csv to the station files area.',
    steps: [{ op: 'upload', target: { name: '^(Station files|Drop station files here)$' }, files: ['stations.csv'] }],
    judge: (s) => str(s['dropped']) === str(['stations.csv']),
  },
];

/** The files the upload tasks give, by name (in test/widgets/files/). */
export const TASK_FILES: readonly string[] = [
  ...new Set(TASKS.flatMap((t) => t.steps.flatMap((s) => (s.op === 'upload' ? s.files : [])))),
];
