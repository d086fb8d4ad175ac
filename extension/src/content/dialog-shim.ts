/**
 * The one main-world hook of Tether. The page's `alert`, `confirm` and `prompt` live in its main world, which the
 * isolated agent cannot patch, and Chrome delivers a page's error events only to listeners of the world that raised
 * them. So `installDialogShim` runs in the MAIN world (Chrome 111+, Firefox 128+): at document start in every top
 * frame as a registered content script (page-hooks.ts), and on demand by the worker right before an action or a
 * page_console read (`executeScript({world: 'MAIN', func: installDialogShim, args: [channel]})`), which on a page that
 * already has the hook only attaches the worker's channel to it.
 *
 * It keeps the page's console: every console.log/info/warn/error/debug call, uncaught error and unhandled rejection,
 * in a bounded ring in the page (so it survives the worker's sleep), each with its level, a bounded text, where it was
 * raised (url:line:col) and when. While the agent has an action in flight (between its `begin` and `end` messages) the
 * shim also answers dialogs by the action's policy (dismiss unless told to accept) and reports them, the page's
 * uncaught errors, what it logs with `console.error`, its requests in flight and the timers it sets; outside an action the page's own
 * functions run and the user sees the real dialog.
 *
 * Messages are CustomEvents named `channel` on `document`, the detail a JSON string (strings cross worlds in both
 * browsers; objects do not). A page that guesses the channel can forge them: that only changes what is reported (page
 * output, which it could log itself) or makes its own dialogs answer themselves, never what the user approves.
 * `beforeunload` prompts are not intercepted. Built-ins it uses are taken at install, before page scripts run.
 *
 * The function is self-contained (no imports, no outer variables): executeScript sends its source text.
 */

/** A console level the hook records (uncaught errors and rejections are `error`). */
export type ConsoleLevel = 'debug' | 'log' | 'info' | 'warn' | 'error';

/** One recorded console message, as the hook keeps and sends it. */
export interface ConsoleEntry {
  seq: number;
  level: ConsoleLevel;
  text: string;
  /** `url:line:col` of the call or the error, or '' when the engine gave none. */
  source: string;
  /** Epoch ms. */
  time: number;
}

/** Messages on the channel, agent -> shim and shim -> agent. */
export type ShimMessage =
  | { t: 'ping' }
  | { t: 'begin'; accept: boolean; promptText?: string }
  | { t: 'end' }
  | { t: 'dialog'; type: 'alert' | 'confirm' | 'prompt'; message: string; accepted: boolean }
  | { t: 'error'; message: string }
  | { t: 'net'; d: 1 | -1 }
  /** The page set a timer (or asked for an animation frame) during the action, due in `ms`. */
  | { t: 'timer'; ms: number }
  | { t: 'read'; since: number }
  | {
      t: 'log';
      entries: ConsoleEntry[];
      /** Entries older than the ring holds, dropped. */
      dropped: number;
      /** The hook ran at document start (else only from `startedAt`, when Tether first reached the page). */
      fromStart: boolean;
      startedAt: number;
      url: string;
    };

/**
 * Hooks the page (once per document) and attaches `channel` to the hook; returns false when the page was already
 * hooked. `fromStart` is true only for the document-start content script.
 */
export function installDialogShim(channel: string | null, fromStart = false): boolean {
  type Policy = { accept: boolean; promptText?: string };
  type Entry = { seq: number; level: string; text: string; source: string; time: number };
  const BOOT = 'tether-page-hooks';
  const MAX_ENTRIES = 500;
  const MAX_TEXT = 1000;
  const MAX_CHANNELS = 8;
  const Custom = CustomEvent;
  const dispatch = EventTarget.prototype.dispatchEvent;
  const listen = EventTarget.prototype.addEventListener;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const now = Date.now;
  const ErrorType = Error;
  const emit = (name: string, message: object, cancelable = false): boolean =>
    dispatch.call(document, new Custom(name, { cancelable, detail: stringify(message) }));
  if (!emit(BOOT, { t: 'attach', channel }, true)) return false;

  let policy: Policy | null = null;
  const channels: string[] = [];
  const entries: Entry[] = [];
  let seq = 0;
  let dropped = 0;
  const startedAt = now();
  const send = (message: object): void => {
    for (const c of channels) emit(c, message);
  };
  const onChannel = (event: Event): void => {
    let message: { t?: unknown; accept?: unknown; promptText?: unknown; since?: unknown };
    try {
      message = parse(String((event as CustomEvent).detail));
    } catch {
      return;
    }
    if (message.t === 'ping') event.preventDefault();
    else if (message.t === 'begin') {
      policy = { accept: message.accept === true };
      if (typeof message.promptText === 'string') policy.promptText = message.promptText;
    } else if (message.t === 'end') policy = null;
    else if (message.t === 'read') {
      const since = typeof message.since === 'number' ? message.since : 0;
      const out = entries.filter((e) => e.seq > since);
      emit(event.type, { t: 'log', entries: out, dropped, fromStart, startedAt, url: location.href });
    }
  };
  const attach = (c: unknown): void => {
    if (typeof c !== 'string' || c === BOOT || channels.includes(c)) return;
    // A page can attach channels of its own: keep the newest few, so it cannot grow this list without bound.
    if (channels.length >= MAX_CHANNELS) channels.shift();
    channels.push(c);
    listen.call(document, c, onChannel);
  };
  listen.call(document, BOOT, (event: Event) => {
    try {
      const message = parse(String((event as CustomEvent).detail)) as { t?: unknown; channel?: unknown };
      if (message.t !== 'attach') return;
      event.preventDefault();
      attach(message.channel);
    } catch {
      // Not ours.
    }
  });
  attach(channel);

  const text = (value: unknown): string => String(value ?? '').slice(0, 500);
  /** A short, bounded rendering of a logged value; page getters may throw, which costs the value, not the message. */
  const preview = (value: unknown, depth: number): string => {
    try {
      if (typeof value === 'string') return depth === 0 ? value : stringify(value);
      if (typeof value === 'bigint') return `${value}n`;
      if (typeof value === 'function') return `ƒ ${value.name || 'anonymous'}()`;
      if (value === null || typeof value !== 'object') return String(value);
      if (value instanceof ErrorType) return `${value.name}: ${value.message}`;
      if (typeof Element === 'function' && value instanceof Element)
        return `<${value.tagName.toLowerCase()}${value.id ? `#${value.id}` : ''}>`;
      if (Array.isArray(value)) {
        if (depth >= 2) return `Array(${value.length})`;
        const items = value.slice(0, 20).map((v) => preview(v, depth + 1));
        return `[${items.join(', ')}${value.length > 20 ? ', …' : ''}]`;
      }
      if (depth >= 2) return '{…}';
      const keys = Object.keys(value);
      const shown = keys.slice(0, 20).map((k) => `${k}: ${preview((value as Record<string, unknown>)[k], depth + 1)}`);
      return `{${shown.join(', ')}${keys.length > 20 ? ', …' : ''}}`;
    } catch {
      return '[unreadable value]';
    }
  };
  /** The console's own rendering: a first string's %s/%d/%i/%f/%o/%O/%c take the following arguments. */
  const format = (args: unknown[]): string => {
    const [first] = args;
    if (typeof first !== 'string' || !first.includes('%')) return args.map((a) => preview(a, 0)).join(' ');
    let next = 1;
    const head = first.replace(/%([sdifoOc%])/g, (match, kind: string) => {
      if (kind === '%') return '%';
      if (next >= args.length) return match;
      const arg = args[next++];
      if (kind === 'c') return '';
      if (kind === 'd' || kind === 'i') return String(Number.parseInt(String(arg), 10));
      if (kind === 'f') return String(Number(arg));
      return preview(arg, kind === 's' ? 0 : 1);
    });
    return [head, ...args.slice(next).map((a) => preview(a, 0))].join(' ');
  };
  /** `url:line:col` of stack frame `index` (Chrome `    at f (url:1:2)`, Firefox `f@url:1:2`), or ''. */
  const frameAt = (stack: unknown, index: number): string => {
    if (typeof stack !== 'string') return '';
    const frames = stack.split('\n').filter((l) => /:\d+:\d+\)?\s*$/.test(l));
    const line = frames[index]?.trim() ?? '';
    const token = line.split(/\s+/).pop() ?? '';
    return token
      .replace(/^\(|\)$/g, '')
      .replace(/^[^@]*@/, '')
      .slice(0, 300);
  };
  const record = (level: string, message: string, source: string): void => {
    seq += 1;
    entries.push({ seq, level, text: message.slice(0, MAX_TEXT), source, time: now() });
    if (entries.length > MAX_ENTRIES) {
      entries.shift();
      dropped += 1;
    }
  };

  const { alert, confirm, prompt, fetch } = window;
  const report = (type: string, message: unknown, accepted: boolean): void => {
    send({ t: 'dialog', type, message: text(message), accepted });
  };
  window.alert = function tetherAlert(message?: unknown): void {
    if (!policy) return alert.call(window, message);
    report('alert', message, policy.accept);
  };
  window.confirm = function tetherConfirm(message?: string): boolean {
    if (!policy) return confirm.call(window, message);
    report('confirm', message, policy.accept);
    return policy.accept;
  };
  window.prompt = function tetherPrompt(message?: string, defaultValue?: string): string | null {
    if (!policy) return prompt.call(window, message, defaultValue);
    report('prompt', message, policy.accept);
    return policy.accept ? (policy.promptText ?? defaultValue ?? '') : null;
  };
  listen.call(window, 'error', (event: Event) => {
    if (!(event instanceof ErrorEvent)) return;
    const message = String(event.message);
    record(
      'error',
      message.startsWith('Uncaught') ? message : `Uncaught ${message}`,
      event.filename ? `${event.filename}:${event.lineno}:${event.colno}` : '',
    );
    if (policy) send({ t: 'error', message: text(event.message) });
  });
  listen.call(window, 'unhandledrejection', (event: Event) => {
    const reason = (event as PromiseRejectionEvent).reason as { message?: unknown; stack?: unknown } | undefined;
    record('error', `Uncaught (in promise) ${preview(reason, 0)}`, frameAt(reason?.stack, 0));
    if (policy) send({ t: 'error', message: text(`Unhandled rejection: ${reason?.message ?? reason}`) });
  });
  for (const level of ['debug', 'log', 'info', 'warn', 'error'] as const) {
    const original = console[level];
    console[level] = function tetherConsole(...args: unknown[]): void {
      // Frame 0 is this wrapper, frame 1 the page's call.
      record(level, format(args), frameAt(new ErrorType().stack, 1));
      // What the page logs as an error during the action is one of its errors too (the console shows it as one).
      if (level === 'error' && policy)
        send({ t: 'error', message: text(`console.error: ${args.map((a) => String(a)).join(' ')}`) });
      original.apply(console, args);
    };
  }
  // Requests the action starts keep it unsettled until they finish (bounded by the agent's cap).
  if (typeof fetch === 'function') {
    window.fetch = function tetherFetch(...args: Parameters<typeof fetch>): Promise<Response> {
      const result = fetch.apply(window, args);
      if (policy) {
        send({ t: 'net', d: 1 });
        const done = (): void => send({ t: 'net', d: -1 });
        result.then(done, done);
      }
      return result;
    };
  }
  // Timers the action sets are work it started that no mutation shows yet: the agent then waits its quiet window
  // instead of answering at once (a click whose handler renders in a setTimeout or the next animation frame).
  const apply = Reflect.apply;
  const hookTimer = (
    name: 'setTimeout' | 'setInterval' | 'requestAnimationFrame',
    dueMs: (args: unknown[]) => number,
  ) => {
    const original: unknown = Reflect.get(window, name);
    if (typeof original !== 'function') return;
    Reflect.set(window, name, function tetherTimer(...args: unknown[]): unknown {
      if (policy) send({ t: 'timer', ms: dueMs(args) });
      return apply(original, window, args);
    });
  };
  const delayOf = (args: unknown[]): number => Math.max(0, Number(args[1]) || 0);
  hookTimer('setTimeout', delayOf);
  hookTimer('setInterval', delayOf);
  hookTimer('requestAnimationFrame', () => 16);
  const xhrSend = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.send = function tetherSend(
    this: XMLHttpRequest,
    body?: Document | XMLHttpRequestBodyInit | null,
  ) {
    if (policy) {
      send({ t: 'net', d: 1 });
      this.addEventListener('loadend', () => send({ t: 'net', d: -1 }), { once: true });
    }
    return xhrSend.call(this, body);
  };
  return true;
}
