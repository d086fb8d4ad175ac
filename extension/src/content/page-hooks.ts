/**
 * The document-start content script (MAIN world, top frame; the worker registers it, see background/devtools/
 * chrome-devtools.ts): hooks the page before its own scripts run, so page_console sees the page's messages since it
 * loaded. No channel yet: the worker attaches its own when it first needs the page.
 */
import { installDialogShim } from './dialog-shim';

installDialogShim(null, true);
