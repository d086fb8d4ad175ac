/**
 * The protocol version this package speaks (a date, so versions order as text). `initialize` and `bridge/hello`
 * report it; raise it when the host or the extension starts needing something the other side's last release lacks.
 * Its own module (`@tether/protocol/version`), free of schemas: the host reads it on every start-up, and the method
 * table's Zod schemas cost the first answer about 25 ms to load.
 */
export const PROTOCOL_VERSION = '2026-06-02';
