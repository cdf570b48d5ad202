import { enableCompileCache } from 'node:module';
import path from 'node:path';
import { startWithSemiSpace } from './heap';

const isProgram = require.main?.filename === path.join(__dirname, 'main.js');

/**
 * The first module `main.ts` imports, so that it runs before the rest of Steward is loaded: when
 * `dist/main.js` is the program, it restarts in place with Steward's young generation
 * (`startWithSemiSpace`, heap.ts) at a cost of one bare Node.js start-up, not two of Steward's.
 * A process that only imports main (tests, benchmarks, an embedding) is left as it is.
 */
export const semiSpaceStart = isProgram ? startWithSemiSpace() : undefined;

// Then Node.js keeps the code it compiles for Steward's modules on disk (its compile cache, in the
// temporary directory unless NODE_COMPILE_CACHE names another): compiling is most of a start's CPU,
// and a later start reads it back instead (bench/RESULTS.md, "start"). Where the directory cannot
// be written, Node.js says so in the status it returns and the start compiles as before.
if (isProgram) enableCompileCache?.();
