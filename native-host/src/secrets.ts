/**
 * The host process's redactor: the protocol's patterns plus every secret value this process knows. There is one per
 * process, not one per writer, because a key learned by any part (the environment at start, the config file, the
 * model settings) must be masked by every writer from then on: the log, the journals and the frames to the browser.
 */
import { Redactor, secretsInEnv } from '@tether/protocol/redact';

/** Masks secrets for every writer of this process; starts out knowing the secret-named variables of its environment. */
export const secrets = new Redactor(secretsInEnv(process.env));
