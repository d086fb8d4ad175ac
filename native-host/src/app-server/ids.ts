import { randomBytes } from 'node:crypto';
import type { IdKind } from './options';

/**
 * Returns a factory of ids that are unique across restarts (time prefix + process-random suffix + counter),
 * short, and sortable by creation time within one process.
 */
export function createIdFactory(): (kind: IdKind) => string {
  const suffix = randomBytes(4).toString('hex');
  let counter = 0;
  return (kind) => {
    counter = (counter + 1) % 0x100000;
    return `${kind}_${Date.now().toString(36)}${suffix}${counter.toString(36).padStart(4, '0')}`;
  };
}
