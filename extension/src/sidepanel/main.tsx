/** Side panel entry: one panel per tab (`?tab=ID`); without it (Firefox sidebar) it follows the active tab. */
import '../shared/zod-setup';
import '../shared/ui/styles.css';
import { render } from 'preact';
import { WorkerClient } from '../shared/worker-client';
import { SidePanel } from './side-panel';

async function activeTabId(): Promise<number | null> {
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

async function main(): Promise<void> {
  const param = new URLSearchParams(location.search).get('tab');
  const fixedTab = param !== null && /^\d+$/.test(param) ? Number(param) : null;
  const client = new WorkerClient('sidepanel', fixedTab ?? (await activeTabId()));
  if (fixedTab === null) {
    const own = await chrome.windows.getCurrent();
    chrome.tabs.onActivated.addListener(({ tabId, windowId }) => {
      if (windowId === own.id) client.setTab(tabId);
    });
  }
  const root = document.getElementById('app');
  if (root) render(<SidePanel client={client} />, root);
  client.start();
}

void main();
