/**
 * The ways into Tether besides the side panel itself: the toolbar button opens the panel (Chrome by panel behaviour,
 * Firefox by toggling the sidebar from the click), the page's context menu asks about the selection, and the
 * button's own menu opens the approvals popup, which is no longer the button's default.
 */
import { openPanelFor, sidebarAction } from '../../shared/open-panel';

/** Id of the page context-menu entry for selected text. */
export const ASK_SELECTION_MENU = 'tether-ask-selection';
/** Id of the toolbar button's menu entry that opens the approvals popup in a small window. */
export const APPROVALS_MENU = 'tether-approvals';

const POPUP_PATH = 'src/popup/index.html';
/** Longest selection put into the composer; the rest is cut with a note, as a composer holds a question. */
const MAX_QUOTE_CHARS = 4000;

/**
 * The composer text for a selection: the selection quoted line by line (markdown `>`), then an empty line for the
 * question. Empty when the selection holds no text.
 */
export function quoteSelection(selection: string): string {
  const text = selection.replace(/\r\n?/g, '\n').trim();
  if (!text) return '';
  const cut = text.length > MAX_QUOTE_CHARS ? `${text.slice(0, MAX_QUOTE_CHARS)}…` : text;
  return `${cut
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n')}\n\n`;
}

/** Registers the menu entries (at install and update: Chrome keeps them across restarts). */
export function createMenus(): void {
  chrome.contextMenus.removeAll(() => {
    chrome.contextMenus.create({
      id: ASK_SELECTION_MENU,
      title: 'Ask Tether about the selection',
      contexts: ['selection'],
    });
    chrome.contextMenus.create({ id: APPROVALS_MENU, title: 'Approvals and quick prompt', contexts: ['action'] });
  });
}

/** What the menus need from the worker. */
export interface MenuTarget {
  /** Puts `text` in the composer of the tab's panel (now, or when the panel opens). */
  offerDraft(tabId: number, text: string): void;
}

/**
 * Handles a click on one of Tether's menu entries. The panel is opened first, inside the click's user gesture; the
 * draft is offered whether or not that worked, so a panel the user opens later still gets it.
 */
export function onMenuClick(
  target: MenuTarget,
  info: { menuItemId: string | number; selectionText?: string },
  tab: { id?: number; windowId?: number } | undefined,
  log: (line: string) => void,
): void {
  const tabId = tab?.id;
  if (tabId === undefined || tabId < 0) return;
  if (info.menuItemId === ASK_SELECTION_MENU) {
    openPanelFor(tabId).catch((error: unknown) => log(`could not open the side panel: ${String(error)}`));
    const draft = quoteSelection(info.selectionText ?? '');
    if (draft) target.offerDraft(tabId, draft);
  } else if (info.menuItemId === APPROVALS_MENU) {
    void chrome.windows
      .create({ url: `${POPUP_PATH}?tab=${tabId}`, type: 'popup', width: 380, height: 600 })
      .catch((error: unknown) => log(`could not open the approvals window: ${String(error)}`));
  }
}

/**
 * Makes the toolbar button (and its keyboard command) open Tether: Chrome opens the side panel by itself once told
 * to; Firefox has no such setting, so the click toggles the sidebar.
 */
export function openPanelOnAction(log: (line: string) => void): void {
  if (chrome.sidePanel) {
    chrome.sidePanel
      .setPanelBehavior({ openPanelOnActionClick: true })
      .catch((error: unknown) => log(`could not make the button open the side panel: ${String(error)}`));
    return;
  }
  chrome.action.onClicked.addListener(() => {
    const sidebar = sidebarAction();
    (sidebar?.toggle ?? sidebar?.open)?.call(sidebar).catch((error: unknown) => log(`sidebar: ${String(error)}`));
  });
}
