/**
 * The config every browser connection is served with, loaded fresh whether the host relays, serves in-process or the
 * daemon serves it. Kept apart from the Bridge (host-setup.ts) so a relaying host loads neither it nor Zod.
 */
import { existsSync } from 'node:fs';
import { ConfigError } from '../config/config-error';
import { defaultHostConfig, type HostConfig } from '../config/defaults';

/** The host's config, or the defaults and the error that kept the file from loading. */
export interface LoadedConfig {
  readonly config: HostConfig;
  readonly configError: ConfigError | undefined;
}

/** Loads the config file (TETHER_CONFIG or the default one); a broken file yields the defaults and its error. */
export async function loadHostConfig(): Promise<LoadedConfig> {
  const config = defaultHostConfig();
  // Without a config file nothing needs validating: Zod (a third of the start-up time) is not even loaded.
  if (!process.env['TETHER_CONFIG'] && !existsSync(config.file)) return { config, configError: undefined };
  try {
    return { config: (await import('../config/load')).loadConfig(), configError: undefined };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Serve anyway, so the extension can show the config problem instead of "Native host has exited."
    return { config, configError: error };
  }
}
