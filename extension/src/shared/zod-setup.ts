/**
 * Imported first by every extension entry: MV3 pages and workers forbid `eval`/`new Function`, which zod's
 * JIT-compiled parsers use. This module must stay free of other imports so it runs before any schema is built.
 */
import { z } from 'zod';

z.config({ jitless: true });
