import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Where the bot's features live; each keeps its card templates beside their renderers. */
const BOT = path.resolve(__dirname, '..', '..', '..', 'src', 'bot');

/** Every Adaptive Card template of the bot (`src/bot/<feature>/<name>Card.json`), by path. */
export function cardTemplateFiles(): string[] {
  return readdirSync(BOT, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .map((file) => path.join(BOT, file))
    .sort();
}
