declare const __TETHER_VERSION__: string | undefined;

/** The version of the `tether` command, injected by the bundler (tests run from source get `0.0.0-dev`). */
export const TETHER_VERSION: string = typeof __TETHER_VERSION__ === 'string' ? __TETHER_VERSION__ : '0.0.0-dev';
