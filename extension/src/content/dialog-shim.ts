/**
 * The page's `alert`, `confirm` and `prompt` live in its main world, which the isolated agent cannot patch, and
 * Chrome delivers a page's error events only to listeners of the world that raised them. So the worker runs
 * `installDialogShim` in the MAIN world (`executeScript({world: 'MAIN', func: installDialogShim, args: [channel]})`,
 * Chrome 111+, Firefox 128+) right before an action. While the agent has an action in flight (between its `begin`
 * and `end` messages) the shim answers dialogs by the action's policy (dismiss unless told to accept) and reports
 * them, the page's uncaught errors, what it logs with `console.error`, and its requests in flight back to the agent; outside an action the page's own
 * functions run and the user sees the real dialog.
 *
 * Messages are CustomEvents named `channel` on `document`, the detail a JSON string (strings cross worlds in both
 * browsers; objects do not). A page that guesses the channel can forge them: that only changes what is reported or
 * makes its own dialogs answer themselves, never what the user approves. `beforeunload` prompts are not intercepted.
 *
 * The function is self-contained (no imports, no outer variables): executeScript sends its source text.
 */

/** Messages on the channel, agent -> shim and shim -> agent. */
export type ShimMessage =
  | { t: 'ping' }
  | { t: 'begin'; accept: boolean; promptText?: string }
  | { t: 'end' }
  | { t: 'dialog'; type: 'alert' | 'confirm' | 'prompt'; message: string; accepted: boolean }
  | { t: 'error'; message: string }
  | { t: 'net'; d: 1 | -1 };

/** Wraps the dialogs (once per document and channel); returns false when this channel's shim was already there. */
export function installDialogShim(channel: string): boolean {
  type Policy = { accept: boolean; promptText?: string };
  const ping = new CustomEvent(channel, { cancelable: true, detail: JSON.stringify({ t: 'ping' }) });
  if (!document.dispatchEvent(ping)) return false;
  let policy: Policy | null = null;
  const send = (message: object): void => {
    document.dispatchEvent(new CustomEvent(channel, { detail: JSON.stringify(message) }));
  };
  document.addEventListener(channel, (event) => {
    let message: { t?: unknown; accept?: unknown; promptText?: unknown };
    try {
      message = JSON.parse(String((event as CustomEvent).detail));
    } catch {
      return;
    }
    if (message.t === 'ping') event.preventDefault();
    else if (message.t === 'begin') {
      policy = { accept: message.accept === true };
      if (typeof message.promptText === 'string') policy.promptText = message.promptText;
    } else if (message.t === 'end') policy = null;
  });
  const text = (value: unknown): string => String(value ?? '').slice(0, 500);
  const report = (type: string, message: unknown, accepted: boolean): void => {
    send({ t: 'dialog', type, message: text(message), accepted });
  };
  const { alert, confirm, prompt, fetch } = window;
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
  window.addEventListener('error', (event) => {
    if (policy && event instanceof ErrorEvent) send({ t: 'error', message: text(event.message) });
  });
  // What the page logs as an error during the action is one of its errors too (the console shows it as one).
  const consoleError = console.error;
  console.error = function tetherConsoleError(...args: unknown[]): void {
    if (policy) send({ t: 'error', message: text(`console.error: ${args.map((a) => String(a)).join(' ')}`) });
    consoleError.apply(console, args);
  };
  window.addEventListener('unhandledrejection', (event) => {
    const reason = (event as PromiseRejectionEvent).reason as { message?: unknown } | undefined;
    if (policy) send({ t: 'error', message: text(`Unhandled rejection: ${reason?.message ?? reason}`) });
  });
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
