/** Exit codes of `tether host`, the same whether it relays to the daemon or serves in-process. */
export const HostExit = {
  /** Input ended (the browser disconnected) or SIGTERM. */
  Ok: 0,
  /** The caller is not an allowed extension (or there is no caller argument). */
  CallerRefused: 3,
  /** The input is not a native-messaging stream (oversized or zero length, truncated frame). */
  BadInput: 5,
} as const;
