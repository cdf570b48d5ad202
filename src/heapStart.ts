import path from 'node:path';
import { startWithSemiSpace } from './heap';

/**
 * The first module `main.ts` imports, so that it runs before the rest of Steward is loaded: when
 * `dist/main.js` is the program, it restarts in place with Steward's young generation
 * (`startWithSemiSpace`, heap.ts) at a cost of one bare Node.js start-up, not two of Steward's.
 * A process that only imports main (tests, benchmarks, an embedding) is left as it is.
 */
export const semiSpaceStart =
  require.main?.filename === path.join(__dirname, 'main.js') ? startWithSemiSpace() : undefined;
