#!/usr/bin/env node
// Development entry point (`npx tether`): runs the bundled host, building it first when it is missing or older than
// its sources. Installed launchers run dist/tether.mjs directly and never pay for this check.
import { pathToFileURL } from 'node:url';
import { ensureHostBundle } from '../scripts/host-bundle.mjs';

await import(pathToFileURL(await ensureHostBundle()).href);
