/**
 * A fast structural check of items read back from a journal. Journals are our own files, but a disk or an editor can
 * damage them; Zod-parsing 100,000 items costs more than reading them, so the check covers exactly what readers rely
 * on (the Item schema's required fields) and nothing more.
 */
import type { Item } from '@tether/protocol';

const TEXT_TYPES = new Set(['userMessage', 'agentMessage', 'reasoning']);
const STATUSES = new Set(['inProgress', 'completed', 'failed', 'declined']);

/** True when `value` has the shape the Item schema requires. */
export function isItem(value: unknown): value is Item {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  if (typeof v.id !== 'string' || typeof v.status !== 'string' || !STATUSES.has(v.status)) return false;
  if (typeof v.createdAtMs !== 'number' || (v.completedAtMs !== undefined && typeof v.completedAtMs !== 'number'))
    return false;
  if (v.turnId !== undefined && typeof v.turnId !== 'string') return false;
  const c = v.content as Record<string, unknown> | null;
  if (typeof c !== 'object' || c === null) return false;
  if (TEXT_TYPES.has(v.type as string)) return typeof c.text === 'string';
  if (v.type === 'toolCall')
    return (
      typeof c.toolName === 'string' &&
      (c.error === undefined || typeof c.error === 'string') &&
      (c.status === undefined || typeof c.status === 'string')
    );
  if (v.type === 'error')
    return (
      typeof c.message === 'string' &&
      (c.code === undefined || typeof c.code === 'string' || typeof c.code === 'number')
    );
  return false;
}
