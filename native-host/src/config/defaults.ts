/**
 * The configuration without a config file: the embedded backend only. Kept apart from the Zod schema so a host
 * started without a config file never loads Zod before its first answer (it is a third of the start-up time).
 */
import { dataDir, type PathEnv, configFile } from '../paths';
import type { BackendConfig } from './schema';

/** The id of the built-in backend, always configured unless the file redefines it. */
export const EMBEDDED_BACKEND_ID = 'embedded';
/** Size at which host.log is rotated unless the config file says otherwise. */
export const DEFAULT_LOG_MAX_BYTES = 1024 * 1024;
/** How long the daemon lets a page-tool call wait for a browser to come back unless the config file says otherwise. */
export const DEFAULT_PAGE_TOOL_WAIT_MS = 3 * 60 * 1000;

/** The validated configuration the host runs with. */
export interface HostConfig {
  /** The file this came from (whether or not it exists). */
  readonly file: string;
  /** `file` when the file was read, `default` when there was none. */
  readonly source: 'file' | 'default';
  readonly defaultBackend: string;
  /** Backends by id, with `cwd` and `dataDir` made absolute. */
  readonly backends: Readonly<Record<string, BackendConfig>>;
  /** Extension ids from the file; never the development ids (only a `tether install --dev` launcher allows those). */
  readonly allowedExtensionIds: readonly string[];
  /** Where the embedded backend stores threads unless its config says otherwise. */
  readonly dataDir: string;
  readonly logMaxBytes: number;
  /** How long the daemon lets a page-tool call wait for a browser (`daemon.pageToolWaitSeconds`), in ms. */
  readonly pageToolWaitMs: number;
  /** `daemon.enabled` from the file: whether the host relays to the daemon; undefined leaves it to the default. */
  readonly daemonEnabled?: boolean;
  /** Lines for the host's log about what loading did (a config file or folder whose permissions were tightened). */
  readonly notes?: readonly string[];
}

/**
 * Names every JavaScript object inherits (`__proto__`, `constructor`, `toString`...). They are never backend ids: a
 * lookup by such a name on a plain object finds the inherited member, not a backend.
 */
export const RESERVED_BACKEND_IDS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** The configured backend with this id, or undefined; only the config's own entries count, never inherited names. */
export function findBackend(config: Pick<HostConfig, 'backends'>, id: string): BackendConfig | undefined {
  return Object.hasOwn(config.backends, id) ? config.backends[id] : undefined;
}

/** The built-in backends, present in every configuration. */
export function builtinBackends(): Record<string, BackendConfig> {
  return {
    [EMBEDDED_BACKEND_ID]: {
      kind: 'embedded',
      dialect: 'tether',
      description: 'Reference app-server built into the host',
    },
  };
}

/** The configuration used when there is no config file. */
export function defaultHostConfig(options: PathEnv = {}): HostConfig {
  return {
    file: configFile(options),
    source: 'default',
    defaultBackend: EMBEDDED_BACKEND_ID,
    backends: builtinBackends(),
    allowedExtensionIds: [],
    dataDir: dataDir(options),
    logMaxBytes: DEFAULT_LOG_MAX_BYTES,
    pageToolWaitMs: DEFAULT_PAGE_TOOL_WAIT_MS,
  };
}
