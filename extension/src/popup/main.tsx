/** Popup entry: state of the connection, this tab's pending approvals, a quick prompt, and "open side panel". */
import '../shared/zod-setup';
import '../shared/ui/styles.css';
import { render } from 'preact';
import { WorkerClient } from '../shared/worker-client';
import { Popup } from './popup';

async function main(): Promise<void> {
  // Tests open the popup as a tab and name the tab to act on; in real use it is the active tab.
  const param = new URLSearchParams(location.search).get('tab');
  const [active] = param ? [] : await chrome.tabs.query({ active: true, currentWindow: true });
  const tabId = param && /^\d+$/.test(param) ? Number(param) : (active?.id ?? null);
  const client = new WorkerClient('popup', tabId);
  const root = document.getElementById('app');
  if (root) render(<Popup client={client} tabId={tabId} />, root);
  client.start();
}

void main();
