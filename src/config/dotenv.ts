import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { ConfigError } from './values';

/**
 * Reads `.env` from `dir` (the working directory) when there is one, into `env` for the names it
 * does not set already: the real environment (the platform's, the shell's) wins over the file.
 * Called by each entry point before it reads its configuration, so `npm start`, the command-line
 * tools and the processes a cluster starts see the same settings. Returns the names it set.
 */
export function loadDotEnv(dir: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string[] {
  const file = path.join(dir, '.env');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new ConfigError('.env', `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const set: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(text))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    set.push(name);
  }
  return set;
}
