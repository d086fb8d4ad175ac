/**
 * What the page tools need from the browser (chrome-pages.ts binds it to chrome.*, tests to a fake tab), and the
 * shapes that come back from the page.
 */
import type { AgentCall, AgentFile, ElementFacts, PageReadResult, Point } from '../../shared/agent-contract';
import type { InputLayer } from '../input/input-layer';
import type { DevtoolsTools } from '../devtools/devtools-tools';

/** A file for page_upload as the host read it. */
export type UploadFile = AgentFile & { size: number };

/** A tab as tabs_list reports it. */
export interface TabSummary {
  id: number;
  title: string;
  url: string;
  active: boolean;
}

/** A frame agent's answer: the document it ran in (its id), and what it returned, or that the document changed. */
export type AgentReply = { docId: string; stale: false; value: unknown } | { docId: string; stale: true };

/** Browser access the tools need (index.ts binds it to chrome.*). */
export interface PageToolDeps {
  readPage(tabId: number, maxChars: number): Promise<PageReadResult>;
  listTabs(tabId: number): Promise<TabSummary[]>;
  /**
   * A PNG data URL of the visible tab, cropped to `box` (CSS pixels of the viewport) when given; rejects when the tab
   * is not its window's active tab.
   */
  capture(tabId: number, box?: ElementFacts['box']): Promise<string>;
  /** Injects the page agent into every frame of the tab it can reach, and says which frames run it. */
  injectAgent(tabId: number): Promise<number[]>;
  /** Calls one frame's agent; `stale` when the frame no longer shows `expectDoc`; rejects when the frame is gone. */
  callAgent(tabId: number, frameId: number, call: AgentCall, expectDoc?: string): Promise<AgentReply>;
  /**
   * Installs the main-world shim that lets the frame's agent answer the page's alert/confirm/prompt and hear its errors
   * and requests during an action; resolves with the channel to give the agent.
   */
  installDialogShim(tabId: number, frameId: number): Promise<string>;
  /** The tab's page now. */
  tabInfo(tabId: number): Promise<{ url: string; title: string } | undefined>;
  /** Starts a navigation of the tab. */
  navigate(tabId: number, to: { url: string } | 'back' | 'forward' | 'reload'): Promise<void>;
  /** Resolves when the tab's page finished loading, or false after `capMs`. */
  waitForLoad(tabId: number, capMs: number): Promise<boolean>;
  /** The offset of a frame's viewport in the tab's viewport (CSS px): 0,0 for the top frame. */
  frameOffset(tabId: number, frameId: number): Promise<Point>;
  /**
   * Files on this computer as the host finds them (only regular files by absolute path), their bytes as base64 when
   * `bytes` (empty otherwise); rejects with the host's reason, naming the path.
   */
  readFiles(paths: readonly string[], bytes: boolean): Promise<UploadFile[]>;
  /** Trusted input (Chrome's debugger); absent where only synthetic input is possible. */
  readonly input?: InputLayer;
  /** page_console and page_network (the page's console hook and the webRequest observer); absent in unit tests. */
  readonly devtools?: DevtoolsTools;
}
