/**
 * The hooks of a daemon test file: each test gets a daemon of its own and the relays (`tether host`) it starts, all
 * stopped after the test, relays first. Kept apart from daemon-env.ts, which the chaos bench loads outside vitest.
 */
import { afterEach } from 'vitest';
import { type HostProcess, type StartHostOptions, startHost } from '../host/host-process';
import { type DaemonEnv, daemonEnv } from './daemon-env';

/** Registers the file's afterEach; call once at the top level of a test file. */
export function daemonPerTest() {
  let daemon: DaemonEnv | undefined;
  const hosts: HostProcess[] = [];
  afterEach(async () => {
    for (const h of hosts.splice(0)) await h.dispose();
    await daemon?.dispose();
    daemon = undefined;
  });
  return {
    /** The test's daemon folders, `extra` added to their environment; stopped and removed after the test. */
    daemon(extra: Record<string, string> = {}): DaemonEnv {
      daemon = daemonEnv(extra);
      return daemon;
    },
    /** A host started with `options` (give it the daemon's `env`), disposed after the test. */
    host(options: StartHostOptions): HostProcess {
      const h = startHost(options);
      hosts.push(h);
      return h;
    },
  };
}
