/** The extension pages connected to the worker: one Port each, known by kind and tab after their `hello`. */
import type { ViewKind, WorkerToView } from '../../shared/messages';

/** One connected page. */
export interface View {
  readonly id: number;
  kind: ViewKind | undefined;
  tabId: number | null;
  /** Sends to the page; a closed page is ignored. */
  send(message: WorkerToView): void;
}

/** Registry of connected pages. */
export class ViewRegistry {
  private readonly views = new Set<View>();

  /** Adds a page. */
  add(view: View): void {
    this.views.add(view);
  }

  /** Removes a page. */
  remove(view: View): void {
    this.views.delete(view);
  }

  /** Every page that said hello. */
  all(): View[] {
    return [...this.views].filter((v) => v.kind !== undefined);
  }

  /** The side panels and popups of one tab. */
  forTab(tabId: number): View[] {
    return this.all().filter((v) => v.tabId === tabId && v.kind !== 'options');
  }

  /** The side panels and popups of any of `tabIds`. */
  forTabs(tabIds: readonly number[]): View[] {
    return this.all().filter((v) => v.tabId !== null && tabIds.includes(v.tabId) && v.kind !== 'options');
  }
}
