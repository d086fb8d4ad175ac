/** Checks of what a host delivered, shared by the in-process and the daemon-relayed host tests. */
import { expect } from 'vitest';
import { deltaText, type HostProcess, type Msg } from './host-process';

/**
 * Checks that the streamed answer `h` received after message `from` arrived whole: its deltas join into `length`
 * characters, the completed agentMessage holds the same text, and no frame was over 1 MiB. Returns that item.
 */
export function expectWholeAnswer(h: Pick<HostProcess, 'messages' | 'frames'>, from: number, length: number): Msg {
  const deltas = deltaText(h, from);
  expect(deltas).toHaveLength(length);
  const completed = h.messages
    .slice(from)
    .find((m) => m.method === 'item/completed' && m.params.item.type === 'agentMessage');
  expect(completed?.params.item.content.text).toBe(deltas);
  expect(Math.max(...h.frames.map((f) => f.payload.length))).toBeLessThanOrEqual(1_048_576);
  if (!completed) throw new Error('no completed agentMessage');
  return completed;
}
