/** Builds the Backend for a configured backend id: embedded, passthrough command, or command behind an adapter. */
import type { BackendConfig } from '../config/schema';
import { AdapterBackend } from './adapter-backend';
import { CommandBackend } from './command-backend';
import { EmbeddedBackend } from './embedded-backend';
import type { Backend, BackendContext } from './types';

/** A new (not yet started) Backend for `config`; in the daemon, a command backend joins the shared one. */
export function createBackend(id: string, config: BackendConfig, context: BackendContext): Backend {
  if (config.kind === 'embedded') return new EmbeddedBackend(id, config, context);
  if (context.sharedCommands) return context.sharedCommands.connect(id, config, context);
  if (config.dialect === 'tether') return new CommandBackend(id, config, context);
  return new AdapterBackend(id, { ...config, dialect: config.dialect }, context);
}
