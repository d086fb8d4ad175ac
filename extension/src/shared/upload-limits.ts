/** Limits of files handed to the page, in a module without zod so the injected page agent can import it too. */

/** Most bytes (decoded) the agent accepts for one `upload`, all files together; more is refused with an error. */
export const UPLOAD_MAX_BYTES = 32 * 1024 * 1024;
