export { parseJsonPayload, type DecodeSink } from './json-payload';
export { JsonlDecoder, LineSplitter, encodeJsonl, type JsonlDecoderOptions, type LineSplitterOptions } from './jsonl';
export {
  NativeFrameDecoder,
  FrameSplitter,
  encodeNativeFrame,
  frameJson,
  frameHeader,
  type NativeFrameDecoderOptions,
  type FrameSplitterOptions,
} from './native-frame';
export {
  splitIntoChunks,
  ChunkAssembler,
  BRIDGE_CHUNK_METHOD,
  type SplitIntoChunksOptions,
  type ChunkAssemblerOptions,
} from './chunking';
export {
  BROWSER_MAX_FRAME_BYTES,
  BROWSER_MAX_INBOUND_BYTES,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_FRAME_BYTES,
} from './limits';
export { utf8ByteLength } from './utf8';
export { type PayloadSink, wholePayloads } from './payload-sink';
