import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Microsoft's published connector schemas, beside the repository (their README says where from). */
export const POWER_PLATFORM_SCHEMAS = path.resolve(__dirname, '../../../shared/reference/power-platform');

/**
 * Reads one of Microsoft's connector schemas: JSON with `//` comments (their files carry a few),
 * which are dropped outside strings before parsing.
 */
export function readConnectorSchema(name: string): Record<string, unknown> {
  const text = readFileSync(path.join(POWER_PLATFORM_SCHEMAS, name), 'utf8');
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return JSON.parse(out) as Record<string, unknown>;
}
