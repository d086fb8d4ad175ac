/**
 * The document-start content script (MAIN world, top frame; the worker registers it, see background/devtools/
 * chrome-devtools.ts): hooks the page before its own scripts run, so page_console sees the page's messages since it
 * loaded and page_network the bodies of its fetch and XHR responses. No channel yet: the worker attaches its own when
 * it first needs the page.
 */
import { installDialogShim } from './dialog-shim';
import { installResponseRecorder } from './response-bodies';

// Only on the hook's first run in this document (installDialogShim says whether it was).
if (installDialogShim(null, true)) installResponseRecorder(window, document);
