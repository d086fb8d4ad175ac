/**
 * The few lines of native-messaging framing doctor needs to talk to a host as a browser does: a 32-bit little-endian
 * length, then UTF-8 JSON. Kept here so doctor's probe is independent of the codec it is probing.
 */

/** Encodes one message as a native-messaging frame. */
export function encodeFrame(message: unknown): Uint8Array {
  const payload = new TextEncoder().encode(JSON.stringify(message));
  const frame = new Uint8Array(4 + payload.length);
  new DataView(frame.buffer).setUint32(0, payload.length, true);
  frame.set(payload, 4);
  return frame;
}

/** Collects chunks and hands out complete frame payloads as parsed JSON (arrays are batches: one call per element). */
export class FrameReader {
  private chunks: Uint8Array[] = [];
  private buffered = 0;

  constructor(
    private readonly onMessage: (message: unknown) => void,
    private readonly maxFrameBytes = 1_048_576,
  ) {}

  /** Adds bytes from the host's stdout; throws on an oversized frame or invalid JSON, as the browser would refuse them. */
  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    for (;;) {
      if (this.buffered < 4) return;
      const all = this.take();
      const length = new DataView(all.buffer, all.byteOffset, 4).getUint32(0, true);
      if (length > this.maxFrameBytes) {
        throw new Error(`the host sent a frame of ${length} bytes; browsers accept at most ${this.maxFrameBytes}`);
      }
      if (all.length < 4 + length) return;
      const payload = all.subarray(4, 4 + length);
      this.chunks = all.length > 4 + length ? [all.subarray(4 + length)] : [];
      this.buffered = all.length - 4 - length;
      const message: unknown = JSON.parse(new TextDecoder().decode(payload));
      for (const item of Array.isArray(message) ? message : [message]) this.onMessage(item);
    }
  }

  private take(): Uint8Array {
    if (this.chunks.length === 1) return this.chunks[0]!;
    const all = new Uint8Array(this.buffered);
    let offset = 0;
    for (const chunk of this.chunks) {
      all.set(chunk, offset);
      offset += chunk.length;
    }
    this.chunks = [all];
    return all;
  }
}
