/**
 * The extension manifest for each target browser. The Chrome build carries the development `key` so the unpacked
 * extension always gets the id gkplngjhinednckbmppipofijkaplcpm, which host manifests allow only after
 * `tether install --dev` (the key is public).
 */
import devKey from '../manifests/dev-key.json' with { type: 'json' };
// The release version lives in one place, the root package.json (the host's bundle reads it too).
import pkg from '../package.json' with { type: 'json' };

/** Browsers the extension is built for. */
export type TargetBrowser = 'chrome' | 'firefox';

const SIDE_PANEL = 'src/sidepanel/index.html';
/**
 * The policy of every extension page (side panel, popup, options, the worker). Nothing remote may run or load: the
 * bundle is all the script there is, images come from the bundle or `data:` (screenshots), and the pages talk to the
 * worker through runtime ports, so `connect-src` needs no more than the extension's own files. A remote image in
 * model output (a classic beacon for page data) is therefore blocked by the browser even if the markdown renderer,
 * which already turns images into links, were bypassed.
 */
export const EXTENSION_PAGES_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/**
 * API permissions. `contextMenus` for "Ask Tether about the selection" (the selected text goes into the panel's
 * composer, never sent by itself) and the button's own menu. No `tabs`: the worker reads a tab's url and title only
 * for pages `<all_urls>` already covers (chrome.tabs.get/query show them with a host permission), and a page the
 * extension may not script (chrome://, another extension's page) has no origin a site rule or a page tool could use
 * anyway. No `activeTab`: a side panel
 * never grants it, and `<all_urls>` already lets captureVisibleTab and scripting run where the user approves.
 * `webRequest`: page_network observes a tab's requests (never blocks or changes them) without a debugging port.
 * `webNavigation`: webNavigation.onCreatedNavigationTarget names the tab whose page opened a new tab, so a tab the
 * page opens while the agent acts on it (target=_blank, window.open) joins the task, and one the user opens from
 * another tab does not (tabs/opened-tabs.ts). Chrome's warning for it is "Read your browsing history", the one
 * `tabs` has, which Chrome does not show beside `<all_urls>`'s "Read and change all your data on all websites"
 * (developer.chrome.com, Permission warning guidelines): no new warning there. Firefox lists it as "Access browser
 * activity during navigation", one more line under "Access your data for all websites", which already covers what
 * it reveals (the urls of the tabs a page opens); worth it so both browsers follow the same exact rule, and without
 * it the worker falls back to guessing by window.
 */
const PERMISSIONS = ['nativeMessaging', 'storage', 'scripting', 'contextMenus', 'webRequest', 'webNavigation'];

/**
 * The keyboard shortcut that opens Tether. Not Alt+Shift+T: Chrome focuses the toolbar with it (Windows, Linux).
 * Alt+Shift+K is none of Chrome's or Firefox's own shortcuts; users change it at chrome://extensions/shortcuts.
 */
export const OPEN_SHORTCUT = 'Alt+Shift+K';

const icons = { 16: 'icons/icon-16.png', 32: 'icons/icon-32.png', 48: 'icons/icon-48.png', 128: 'icons/icon-128.png' };

/** Builds the manifest for `browser`. */
export function buildManifest(browser: TargetBrowser): Record<string, unknown> {
  const common = {
    manifest_version: 3,
    name: 'Tether',
    version: pkg.version,
    description: 'A local AI agent in your side panel, working on the page you are looking at.',
    icons,
    // No default popup: the button opens the side panel (Chrome: setPanelBehavior; Firefox: sidebarAction.toggle in
    // the worker). Pending approvals show in the panel and as the button's badge.
    action: { default_title: 'Tether', default_icon: icons },
    options_ui: { page: 'src/options/index.html', open_in_tab: true },
    // page_read needs the page the user asks about and captureVisibleTab accepts only <all_urls> (or activeTab,
    // which a side panel never grants); every use is approved per site by the user or a site rule.
    host_permissions: ['<all_urls>'],
    content_security_policy: { extension_pages: EXTENSION_PAGES_CSP },
  };
  if (browser === 'firefox') {
    return {
      ...common,
      permissions: PERMISSIONS,
      background: { scripts: ['src/background/index.ts'], type: 'module' },
      sidebar_action: { default_panel: SIDE_PANEL, default_title: 'Tether', default_icon: icons },
      commands: {
        _execute_sidebar_action: { suggested_key: { default: OPEN_SHORTCUT }, description: 'Open or close Tether' },
      },
      browser_specific_settings: { gecko: { id: devKey.firefoxAddonId, strict_min_version: '128.0' } },
    };
  }
  return {
    ...common,
    key: devKey.key,
    minimum_chrome_version: '116',
    // `debugger`: trusted input (real clicks, keys, drag, file choice) through CDP, only while a turn acts and only as
    // the user's trusted-input setting allows; Chrome shows its "started debugging this browser" bar meanwhile. It
    // cannot be an optional permission asked for when the user turns trusted input on: Chrome refuses `debugger` in
    // optional_permissions (kFlagCannotBeOptional in chrome_api_permissions.cc), so the setting is what gates it.
    // Firefox has no such API (bugzilla 1316741), so its build asks for nothing extra. `tabGroups`: a task's tabs
    // show as one tab group named after its thread (Firefox groups tabs without it where it can, untitled).
    permissions: [...PERMISSIONS, 'sidePanel', 'debugger', 'tabGroups'],
    background: { service_worker: 'src/background/index.ts', type: 'module' },
    side_panel: { default_path: SIDE_PANEL },
    // With openPanelOnActionClick, the action's command opens the side panel like a click on the button.
    commands: { _execute_action: { suggested_key: { default: OPEN_SHORTCUT }, description: 'Open Tether' } },
  };
}
