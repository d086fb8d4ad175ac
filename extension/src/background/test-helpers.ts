/** Fakes of browser storage for unit tests of the worker's pure modules. */
import type { StorageAreaLike } from './persistent-state';

/** An in-memory chrome.storage area that round-trips values through JSON, as the real one does. */
export class MemoryStorageArea implements StorageAreaLike {
  readonly data = new Map<string, string>();

  async get(keys: string[]): Promise<Record<string, unknown>> {
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const v = this.data.get(k);
      if (v !== undefined) out[k] = JSON.parse(v);
    }
    return out;
  }

  async set(items: Record<string, unknown>): Promise<void> {
    for (const [k, v] of Object.entries(items)) this.data.set(k, JSON.stringify(v));
  }
}
