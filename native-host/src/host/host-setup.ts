/**
 * What every browser connection is served with, whether the host serves it in-process or the daemon serves it
 * through a relaying host: a Bridge over a writer, with the config host-config.ts loaded (its errors kept to be shown).
 */
import { ErrorCode, RpcError } from '@tether/protocol/errors';
import type { AppServerOptions } from '../app-server';
import { createBackend } from '../backends/factory';
import type { SharedCommands, SharedEngine } from '../backends/types';
import type { Log } from '../log';
import type { McpHub } from '../mcp/hub';
import { reportedProtocolVersion } from '../version';
import { Bridge, type BridgeOptions } from './bridge';
import { MAX_BACKEND_LINE_BYTES } from './bridge-hello';
import type { FrameWriter } from './frame-writer';
import type { LoadedConfig } from './host-config';

// The daemon loads the config through here too, beside the Bridge it builds with it.

/** Options of createHostBridge. */
export interface HostBridgeOptions extends LoadedConfig {
  readonly writer: FrameWriter;
  readonly log: Log;
  readonly mcp: McpHub;
  readonly hostVersion: string;
  readonly setInputPaused: (paused: boolean) => void;
  readonly daemon?: BridgeOptions['daemon'];
  /** The daemon's shared app-server engines: an embedded backend joins one, so its turns outlive the connection. */
  readonly sharedEngine?: (options: AppServerOptions) => SharedEngine;
  /** The daemon's shared command backends: a command backend joins one, so its turns outlive the connection. */
  readonly sharedCommands?: SharedCommands;
}

/** A Bridge for one browser connection; a config error is told to the browser at once and answers every request. */
export function createHostBridge(options: HostBridgeOptions): Bridge {
  const { config, configError, writer, log, mcp } = options;
  const bridge = new Bridge({
    config,
    writer,
    log,
    hostVersion: options.hostVersion,
    protocolVersion: reportedProtocolVersion(process.env),
    mcp,
    createBackend: (id, backendConfig) => {
      return createBackend(id, backendConfig, {
        configFile: config.file,
        dataDir: config.dataDir,
        maxLineBytes: MAX_BACKEND_LINE_BYTES,
        log,
        mcp,
        ...(options.sharedEngine ? { sharedEngine: options.sharedEngine } : {}),
        ...(options.sharedCommands ? { sharedCommands: options.sharedCommands } : {}),
      });
    },
    setInputPaused: options.setInputPaused,
    ...(options.daemon ? { daemon: options.daemon } : {}),
    ...(configError
      ? {
          unavailable: new RpcError(ErrorCode.BackendUnavailable, `Backend unavailable: ${configError.message}`, {
            configFile: configError.file,
            issues: configError.issues,
          }),
        }
      : {}),
  });
  if (configError) {
    writer.enqueueText(
      JSON.stringify({ method: 'error', params: { message: configError.message, code: 'configError' } }),
    );
  }
  return bridge;
}
