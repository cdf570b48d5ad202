import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The package version, for the OpenAPI document, user agents and logs. */
export const VERSION: string = (
  JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;
