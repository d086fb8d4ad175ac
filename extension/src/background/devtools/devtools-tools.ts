/**
 * page_console and page_network: what a developer sees in the browser's DevTools, from what the browser gives an
 * extension without a debugging port (the page's main-world hook for the console and the bodies of the page's
 * fetch/XHR responses, webRequest for the network).
 * Browser access comes in through `DevtoolsSources`, so results are testable without a browser.
 */
import type { ToolCallResult } from '@tether/protocol';
import { errorMessage } from '@tether/protocol';
import { CONSOLE_SOURCE, type ConsoleLevel, ConsoleReport, formatConsole } from './console-log';
import type { NetworkLog } from './network-log';
import { type HookQuery, responseBody } from './network-bodies';
import { formatNetwork, formatRequest, NETWORK_SOURCE } from './network-report';

/** Where the two tools read from (chrome-devtools.ts binds them to the browser). */
export interface DevtoolsSources {
  /**
   * The top frame's hook's reply to `query` (`read` -> `t: 'log'`, `bodies` -> `t: 'bodyList'`, `body` -> `t: 'bodyText'`)
   * as the page sent it, or undefined when the frame had no answer.
   */
  askHook(tabId: number, query: HookQuery): Promise<unknown>;
  /** The webRequest observer's log. */
  readonly network: NetworkLog;
}

/** page_console's arguments. */
export interface ConsoleArgs {
  since?: number | undefined;
  level?: ConsoleLevel | undefined;
}

/** page_network's arguments. */
export interface NetworkArgs {
  filter?: string | undefined;
  failedOnly?: boolean | undefined;
  bodyOf?: string | undefined;
}

function text(t: string, success = true): ToolCallResult {
  return { success, content: [{ type: 'text', text: t }] };
}

/** Runs the two reading tools on a tab the gate allowed. */
export class DevtoolsTools {
  constructor(private readonly sources: DevtoolsSources) {}

  /** page_console: the page's messages after `since`, at `level` or worse. */
  async console(tabId: number, args: ConsoleArgs): Promise<ToolCallResult> {
    let raw: unknown;
    try {
      raw = await this.sources.askHook(tabId, { t: 'read', since: args.since ?? 0 });
    } catch (error) {
      return text(
        `page_console could not reach the page (${errorMessage(error)}): it may be a browser page or block extensions.`,
        false,
      );
    }
    const report = ConsoleReport.safeParse(raw);
    if (!report.success)
      return text(
        `page_console got no console record from the page (${CONSOLE_SOURCE}): the page may have replaced the hook's channel or still be loading; call again, or page_reload to record from the start.`,
        false,
      );
    return text(formatConsole(report.data, args));
  }

  /** page_network: the tab's requests, or one request's headers, sent body and response body. */
  async network(tabId: number, args: NetworkArgs): Promise<ToolCallResult> {
    const log = this.sources.network.of(tabId);
    if (args.bodyOf !== undefined) {
      const entry = log.entries.find((e) => e.id === args.bodyOf);
      if (entry === undefined)
        return text(
          `No request ${args.bodyOf} in this tab's log (${NETWORK_SOURCE}): ids like "r12" come from a page_network list of the page as it is now; a navigation starts a new list.`,
          false,
        );
      const body = await responseBody(entry, (query) => this.sources.askHook(tabId, query));
      return text(formatRequest(entry, body));
    }
    return text(formatNetwork(log, args));
  }
}
