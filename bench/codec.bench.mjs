#!/usr/bin/env node
// Codec throughput: Tether's parsing decoders/encoders and its raw reframing path against the npm package
// `chrome-native-messaging` (Input/Output streams), in one run, on the same input bytes.
// Usage: node bench/codec.bench.mjs [--quick] [--only=TEXT]
// A full run writes bench/results/codec.json and the "Codecs" section of BENCHMARKS.md; --quick (smaller inputs) and
// --only (cases whose name contains TEXT) only print.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { fmt, importCodec, machine as machineOf, writeResults, writeSection } from './support.mjs';

const quick = process.argv.includes('--quick');
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const loadBefore = loadavg()[0];
const require = createRequire(import.meta.url);
const { Input, Output } = require('chrome-native-messaging');

// The protocol package is TypeScript source and Node 20 cannot strip types: bundle the codec once, then import it.
const codec = await importCodec();

// ---------------------------------------------------------------- inputs
const PIPE_CHUNK = 64 * 1024; // what a Node pipe read delivers
const SMALL_COUNT = quick ? 20_000 : 200_000;
const LARGE_COUNT = quick ? 20 : 160;
const RUNS = quick ? 2 : 7;

/** A message whose JSON text is exactly `size` bytes, shaped like a streamed delta or a completed item. */
function messageOfSize(size, kind) {
  const base =
    kind === 'small'
      ? {
          method: 'item/agentMessage/delta',
          params: { threadId: 'thr_8f2a', turnId: 'trn_19c4', itemId: 'itm_77', delta: '' },
        }
      : {
          method: 'item/completed',
          params: {
            threadId: 'thr_8f2a',
            turnId: 'trn_19c4',
            item: { id: 'itm_78', type: 'agentMessage', status: 'completed', content: { text: '' } },
          },
        };
  const empty = Buffer.byteLength(JSON.stringify(base));
  const words = 'The quick brown fox jumps over the lazy dog; "quoted" text, a path C:\\tmp\\x, caf\u00e9 and more.\n';
  let text = '';
  while (Buffer.byteLength(JSON.stringify(text)) - 2 < size - empty) text += words;
  // Trim to the exact size (a trailing escape may need two characters off).
  while (Buffer.byteLength(JSON.stringify(text)) - 2 > size - empty) text = text.slice(0, -1);
  while (Buffer.byteLength(JSON.stringify(text)) - 2 < size - empty) text += 'x';
  if (kind === 'small') base.params.delta = text;
  else base.params.item.content.text = text;
  const json = JSON.stringify(base);
  if (Buffer.byteLength(json) !== size) throw new Error(`message is ${Buffer.byteLength(json)} bytes, wanted ${size}`);
  return base;
}

function framesOf(message, count) {
  const body = Buffer.from(JSON.stringify(message));
  const out = Buffer.allocUnsafe((body.length + 4) * count);
  for (let i = 0; i < count; i++) {
    out.writeUInt32LE(body.length, i * (body.length + 4));
    body.copy(out, i * (body.length + 4) + 4);
  }
  return out;
}

function linesOf(message, count) {
  return Buffer.from(`${JSON.stringify(message)}\n`.repeat(count));
}

function chunksOf(buffer) {
  const out = [];
  for (let at = 0; at < buffer.length; at += PIPE_CHUNK) out.push(buffer.subarray(at, at + PIPE_CHUNK));
  return out;
}

// ---------------------------------------------------------------- output sink of the reframing cases
const ring = new Uint8Array(1 << 20);
let ringAt = 0;
/** Copies `bytes` into the ring buffer (wrapping around), like a write() into a pipe. */
function sinkWrite(bytes) {
  if (bytes.length <= ring.length - ringAt) {
    ring.set(bytes, ringAt);
    ringAt += bytes.length;
    return;
  }
  let off = 0;
  while (off < bytes.length) {
    if (ringAt === ring.length) ringAt = 0;
    const n = Math.min(bytes.length - off, ring.length - ringAt);
    ring.set(bytes.subarray(off, off + n), ringAt);
    ringAt += n;
    off += n;
  }
}

const NEWLINE = Uint8Array.of(10);

/** Writes a 4-byte little-endian length prefix straight into the ring buffer, as a gathering writer would. */
function sinkHeader(length) {
  if (ring.length - ringAt < 4) ringAt = 0;
  ring[ringAt] = length & 0xff;
  ring[ringAt + 1] = (length >>> 8) & 0xff;
  ring[ringAt + 2] = (length >>> 16) & 0xff;
  ring[ringAt + 3] = length >>> 24;
  ringAt += 4;
}

/** Writes one byte into the ring buffer. */
function sinkByte(byte) {
  if (ringAt === ring.length) ringAt = 0;
  ring[ringAt++] = byte;
}

/** Frames in, newline-terminated payloads out; `copy` copies the output into the ring, else lists its pieces. */
function reframeFrames(copy) {
  return ({ frameChunks }) => {
    let n = 0;
    let out = [];
    const s = new codec.FrameSplitter(
      {
        message: (chunk, start, end) => {
          if (copy) {
            sinkWrite(chunk.subarray(start, end));
            sinkByte(10);
          } else out.push(chunk.subarray(start, end), NEWLINE);
          n++;
        },
        messageParts: (parts) => {
          if (copy) {
            for (const p of parts) sinkWrite(p);
            sinkByte(10);
          } else out.push(...parts, NEWLINE);
          n++;
        },
      },
      { maxFrameBytes: 1 << 30 },
    );
    for (const c of frameChunks) {
      s.push(c);
      out = [];
    }
    s.end();
    return n;
  };
}

/** Lines in, length-prefixed payloads out; `copy` copies the output into the ring, else lists its pieces. */
function reframeLines(copy) {
  return ({ lineChunks }) => {
    let n = 0;
    let out = [];
    const s = new codec.LineSplitter(
      {
        message: (chunk, start, end) => {
          if (copy) {
            sinkHeader(end - start);
            sinkWrite(chunk.subarray(start, end));
          } else out.push(codec.frameHeader(end - start), chunk.subarray(start, end));
          n++;
        },
        messageParts: (parts, length) => {
          if (copy) {
            sinkHeader(length);
            for (const p of parts) sinkWrite(p);
          } else out.push(codec.frameHeader(length), ...parts);
          n++;
        },
      },
      { maxLineBytes: 1 << 30 },
    );
    for (const c of lineChunks) {
      s.push(c);
      out = [];
    }
    s.end();
    return n;
  };
}

/** Feeds `chunks` to a protocol decoder and counts the messages it decodes; any decode error is thrown. */
function countDecoded(Decoder, chunks, options) {
  let n = 0;
  const d = new Decoder(
    {
      message: () => n++,
      error: (e) => {
        throw e;
      },
    },
    options,
  );
  for (const c of chunks) d.push(c);
  d.end();
  return n;
}

// ---------------------------------------------------------------- cases
/** Each case processes `count` messages and returns how many it saw (checked, so nothing is optimised away). */
const cases = {
  'decode frames: tether NativeFrameDecoder': ({ frameChunks }) =>
    countDecoded(codec.NativeFrameDecoder, frameChunks, { maxFrameBytes: 1 << 30 }),
  'decode frames: chrome-native-messaging Input': ({ frameChunks }) =>
    new Promise((resolve, reject) => {
      let n = 0;
      const input = new Input();
      input.on('data', () => n++);
      input.on('end', () => resolve(n));
      input.on('error', reject);
      for (const c of frameChunks) input.write(c);
      input.end();
    }),
  'decode JSONL: tether JsonlDecoder': ({ lineChunks }) =>
    countDecoded(codec.JsonlDecoder, lineChunks, { maxLineBytes: 1 << 30 }),
  'encode frames: tether encodeNativeFrame': ({ message, count }) => {
    let bytes = 0;
    for (let i = 0; i < count; i++) bytes += codec.encodeNativeFrame(message).length;
    return bytes > 0 ? count : 0;
  },
  'encode frames: chrome-native-messaging Output': ({ message, count }) =>
    new Promise((resolve, reject) => {
      let pieces = 0;
      const output = new Output();
      output.on('data', () => pieces++);
      output.on('end', () => resolve(pieces / 2)); // header and body are pushed separately
      output.on('error', reject);
      for (let i = 0; i < count; i++) output.write(message);
      output.end();
    }),
  'encode JSONL: tether encodeJsonl': ({ message, count }) => {
    let bytes = 0;
    for (let i = 0; i < count; i++) bytes += codec.encodeJsonl(message).length;
    return bytes > 0 ? count : 0;
  },
  // The host's passthrough: payloads go out as lines (and lines as frames) without JSON.parse. Plain cases hand
  // their output over as pieces (a list a writev would take), as the package's streams hand over Buffers; "+ copy"
  // cases also copy every output byte once, as a write into a pipe does, to show the floor a real process meets.
  'reframe frames -> lines: tether FrameSplitter': reframeFrames(false),
  'reframe frames -> lines + copy: tether FrameSplitter': reframeFrames(true),
  'reframe lines -> frames: tether LineSplitter': reframeLines(false),
  'reframe lines -> frames + copy: tether LineSplitter': reframeLines(true),
};

// ---------------------------------------------------------------- run
// Cases are interleaved run by run, so a burst of load from other processes hits them all alike, and the best run
// of each counts (the least disturbed one): this machine is shared.
async function timeOnce(fn, input) {
  const t0 = process.hrtime.bigint();
  const seen = await fn(input);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (seen !== input.count) throw new Error(`a case saw ${seen} messages, expected ${input.count}`);
  return seconds;
}

const sizes = [
  { label: '120 B', kind: 'small', size: 120, count: SMALL_COUNT },
  { label: '512 KB', kind: 'large', size: 512 * 1024, count: LARGE_COUNT },
];
const results = [];
for (const s of sizes) {
  const message = messageOfSize(s.size, s.kind);
  const input = {
    message,
    count: s.count,
    bytes: s.size * s.count,
    frameChunks: chunksOf(framesOf(message, s.count)),
    lineChunks: chunksOf(linesOf(message, s.count)),
  };
  const best = new Map();
  const selected = Object.entries(cases).filter(([name]) => !only || name.includes(only));
  for (const [, fn] of selected) await fn(input); // warm-up
  for (let r = 0; r < RUNS; r++) {
    for (const [name, fn] of selected) {
      const seconds = await timeOnce(fn, input);
      best.set(name, Math.min(best.get(name) ?? Infinity, seconds));
    }
  }
  for (const [name, seconds] of best) {
    const r = { seconds, msgsPerSec: s.count / seconds, mbPerSec: input.bytes / seconds / 1e6 };
    results.push({ case: name, size: s.label, messages: s.count, ...r });
    process.stderr.write(
      `${s.label.padEnd(7)} ${name.padEnd(50)} ${fmt(r.msgsPerSec).padStart(12)} msg/s ${r.mbPerSec.toFixed(1).padStart(9)} MB/s\n`,
    );
  }
}

function get(name, size) {
  const r = results.find((x) => x.case === name && x.size === size);
  if (!r) throw new Error(`no result for ${name} ${size}`);
  return r;
}

if (only) process.exit(0);

// ---------------------------------------------------------------- targets (issue 2)
const pkgIn = (size) => get('decode frames: chrome-native-messaging Input', size);
const pkgOut = (size) => get('encode frames: chrome-native-messaging Output', size);
const targets = [];
for (const size of ['120 B', '512 KB']) {
  const dec = get('decode frames: tether NativeFrameDecoder', size);
  const enc = get('encode frames: tether encodeNativeFrame', size);
  targets.push({
    target: `parsing decode not slower than the package (${size})`,
    ratio: dec.msgsPerSec / pkgIn(size).msgsPerSec,
    need: 1,
  });
  targets.push({
    target: `parsing encode not slower than the package (${size})`,
    ratio: enc.msgsPerSec / pkgOut(size).msgsPerSec,
    need: 1,
  });
}
targets.push({
  target: 'reframing frames -> lines >= 5x package decode msg/s (120 B)',
  ratio: get('reframe frames -> lines: tether FrameSplitter', '120 B').msgsPerSec / pkgIn('120 B').msgsPerSec,
  need: 5,
});
targets.push({
  target: 'reframing lines -> frames >= 5x package encode msg/s (120 B)',
  ratio: get('reframe lines -> frames: tether LineSplitter', '120 B').msgsPerSec / pkgOut('120 B').msgsPerSec,
  need: 5,
});
targets.push({
  target: 'reframing frames -> lines >= 50x package decode MB/s (512 KB)',
  ratio: get('reframe frames -> lines: tether FrameSplitter', '512 KB').mbPerSec / pkgIn('512 KB').mbPerSec,
  need: 50,
});
targets.push({
  target: 'reframing lines -> frames >= 50x package encode MB/s (512 KB)',
  ratio: get('reframe lines -> frames: tether LineSplitter', '512 KB').mbPerSec / pkgOut('512 KB').mbPerSec,
  need: 50,
});
for (const t of targets) t.met = t.ratio >= t.need;

// ---------------------------------------------------------------- report
const m = machineOf();
const machine = `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Node ${m.node}, ${m.platform}`;
const load = `${loadBefore.toFixed(1)} before, ${loadavg()[0].toFixed(1)} after`;
const date = new Date().toISOString().slice(0, 10);
const table = [
  '| message | case | msg/s | MB/s |',
  '|---|---|---:|---:|',
  ...results.map((r) => `| ${r.size} | ${r.case} | ${fmt(r.msgsPerSec)} | ${r.mbPerSec.toFixed(1)} |`),
].join('\n');
const targetTable = [
  '| target | measured | met |',
  '|---|---:|---|',
  ...targets.map((t) => `| ${t.target} | ${t.ratio.toFixed(t.ratio < 10 ? 2 : 1)}x | ${t.met ? 'yes' : 'NO'} |`),
].join('\n');
console.log(`\n${table}\n\n${targetTable}`);

if (!quick) {
  writeResults('codec', { date, machine, loadAverage: load, pipeChunkBytes: PIPE_CHUNK, runs: RUNS, results, targets });
  const section = [
    '## Codecs',
    '',
    `Measured ${date} on ${machine} (1-minute load average ${load}: other work shares the machine) by`,
    '`node bench/codec.bench.mjs`; figures also in `bench/results/codec.json`.',
    `Same input for every case: ${fmt(SMALL_COUNT)} messages of 120 bytes and ${LARGE_COUNT} of 512 KiB, fed in ${PIPE_CHUNK / 1024} KiB`,
    `chunks as a pipe delivers them; best of ${RUNS} interleaved runs after a warm-up. "Reframe" is the host's passthrough path`,
    '(length prefix <-> newline, no JSON.parse). Its plain rows hand the output over as a list of pieces, as the',
    "package's streams hand over Buffers: a frame that spans chunks is never concatenated, so frames -> lines does work",
    'per chunk, not per byte, on 512 KB messages. Its "+ copy" rows also copy every output byte once into a 1 MiB ring',
    '(length prefixes and newlines written in place), as a write into a pipe must: the floor a real process meets.',
    'The package has no JSONL codec, so the JSONL rows have no counterpart. The parsing rows are bound by JSON.parse',
    "(about 60% of the decoder's profile on 120-byte messages), which both sides pay alike, so their ratio stays near",
    '1-2x; under this load single runs of those ratios moved by up to 0.5x. Compare ratios within one run.',
    '',
    table,
    '',
    'Targets (issue 2): parsing path not slower than `chrome-native-messaging`; reframing at least 5x its messages per',
    'second on 120-byte messages and at least 50x its MB/s on 512 KB messages. Each of our directions is compared with',
    "the package's own half of the same direction (frames in: its Input, which parses; frames out: its Output), which is",
    'stricter than comparing with a whole host built on it (Input -> JSON -> Output).',
    '',
    targetTable,
    '',
    'Encoding one 512 KB message is at parity with the package (0.9x-1.3x over five full runs on this loaded machine):',
    "both sides are bound by JSON.stringify and one UTF-8 encode, and the package's `Buffer.from` skips the zero-filling",
    'of a new `Uint8Array`, which `protocol/` (it must also run in a service worker) cannot avoid. Node-only code such as',
    "the host's frame writer can use `Buffer.from` where that last few percent matters.",
    '',
  ].join('\n');
  writeSection('Codecs', section);
  console.log('\nwrote bench/results/codec.json and the "Codecs" section of BENCHMARKS.md');
}
