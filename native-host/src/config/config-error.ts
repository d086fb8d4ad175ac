/** One problem in the config file: where it is, what is wrong, and how to fix it. */
export interface ConfigIssue {
  /** Dotted path of the field, e.g. `backends.vv.argv`; empty for the file as a whole. */
  readonly field: string;
  readonly message: string;
  readonly fix: string;
}

/** The config file could not be read or is invalid; the message names the file, each field and its fix. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    readonly file: string,
    readonly issues: readonly ConfigIssue[],
    options?: { cause?: unknown },
  ) {
    super(
      [
        `Invalid Tether config file ${file}:`,
        ...issues.map((i) => `  - ${i.field ? `${i.field}: ` : ''}${i.message}. Fix: ${i.fix}`),
      ].join('\n'),
      options,
    );
  }
}
