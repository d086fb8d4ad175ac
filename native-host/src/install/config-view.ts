/** The host's config as install and doctor see it: loaded with the host's own loader, read through the `System`. */
import { ConfigError } from '../config/config-error';
import { loadConfig, type HostConfig } from '../config/load';
import { configFile } from '../paths';
import type { System } from './system';
import { fromUtf8 } from './system';

/** The validated config, or the ConfigError saying what is wrong with the file. Other errors propagate. */
export async function readHostConfig(sys: System): Promise<HostConfig | ConfigError> {
  const pathEnv = { platform: sys.platform, env: sys.env, homedir: sys.homedir };
  // The loader reads synchronously; handing it bytes read through the System lets tests use an in-memory file.
  const bytes = await sys.fs.readFile(configFile(pathEnv));
  try {
    return loadConfig({
      ...pathEnv,
      readFile: (file) => {
        if (bytes === undefined) throw Object.assign(new Error(`ENOENT: no such file ${file}`), { code: 'ENOENT' });
        return fromUtf8(bytes);
      },
    });
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}
