import '../runtime';
import { enableCompileCache } from 'node:module';
import path from 'node:path';

// Each command's first import, after the check of the Node.js version (runtime.ts). When a command is the program, Node.js keeps the code it compiles
// on disk (its compile cache, as for `node dist/main.js`: heapStart.ts), so its later runs read it
// back instead of compiling again. A process that only imports a command (a test) is left as it is.
if (require.main && path.dirname(require.main.filename) === __dirname) enableCompileCache?.();
