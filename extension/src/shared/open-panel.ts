/**
 * Opening Tether's side panel, from the worker (the context menu, the toolbar button in Firefox) and from the popup's
 * "Open side panel" button alike.
 */

const SIDE_PANEL_PATH = 'src/sidepanel/index.html';

/** Firefox's sidebar API, which it also puts on `chrome` (promise-based in MV3); undefined in Chrome. */
interface SidebarAction {
  open(): Promise<void>;
  toggle?(): Promise<void>;
}

/** Firefox's sidebar API, or undefined in Chrome. */
export function sidebarAction(): SidebarAction | undefined {
  return Reflect.get(chrome, 'sidebarAction');
}

/** Opens the side panel of `tabId` (Chrome) or the sidebar (Firefox); must run in a user gesture's handler. */
export async function openPanelFor(tabId: number): Promise<void> {
  if (chrome.sidePanel) {
    // setOptions first without awaiting: awaiting anything before open() loses the user gesture.
    void chrome.sidePanel.setOptions({ tabId, path: `${SIDE_PANEL_PATH}?tab=${tabId}`, enabled: true });
    await chrome.sidePanel.open({ tabId });
    return;
  }
  await sidebarAction()?.open();
}
