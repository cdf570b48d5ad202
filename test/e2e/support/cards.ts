import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { StreamMessage } from './chatStream';

/** An Adaptive Card as JSON. */
export type Card = Record<string, unknown>;

/** An action found on a card. */
export interface CardAction {
  type: string;
  title?: string;
  verb?: string;
  url?: string;
  data?: Record<string, unknown>;
}

const ADAPTIVE_CARD = 'application/vnd.microsoft.card.adaptive';

/** The Adaptive Card of a message, or undefined when it carries none. */
export function cardOf(message: StreamMessage): Card | undefined {
  const attachment = message.attachments.find((a) => a.contentType === ADAPTIVE_CARD);
  return attachment && typeof attachment.content === 'object' ? (attachment.content as Card) : undefined;
}

function walk(node: unknown, visit: (value: Record<string, unknown>) => void): void {
  if (Array.isArray(node)) node.forEach((item) => walk(item, visit));
  else if (node && typeof node === 'object') {
    visit(node as Record<string, unknown>);
    Object.values(node).forEach((value) => walk(value, visit));
  }
}

/** Every action of a card: its actions, action sets, select actions and refresh action. */
export function actionsOf(card: Card): CardAction[] {
  const found: CardAction[] = [];
  walk(card, (node) => {
    if (typeof node.type === 'string' && node.type.startsWith('Action.'))
      found.push(node as unknown as CardAction);
  });
  return found;
}

/** The action of `card` with `verb` whose data matches `data` (every given key), if any. */
export function findAction(
  card: Card,
  verb: string,
  data: Record<string, unknown> = {},
): CardAction | undefined {
  return actionsOf(card).find(
    (action) =>
      action.type === 'Action.Execute' &&
      action.verb === verb &&
      Object.entries(data).every(([key, value]) => action.data?.[key] === value),
  );
}

/** All the text a card shows (text blocks, facts, rich text runs), one entry each. */
export function textsOf(card: Card): string[] {
  const texts: string[] = [];
  walk(card, (node) => {
    for (const key of ['text', 'title', 'value']) {
      if (
        (node.type === 'TextBlock' || node.type === 'TextRun' || key !== 'text') &&
        typeof node[key] === 'string'
      )
        texts.push(node[key] as string);
    }
  });
  return texts;
}

/** Whether the card shows `pattern` anywhere. */
export function cardShows(card: Card, pattern: RegExp): boolean {
  return textsOf(card).some((text) => pattern.test(text)) || pattern.test(String(card.fallbackText ?? ''));
}

/** The inputs of a card with their initial values (`Input.*` ids and `value`s). */
export function inputsOf(card: Card): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  walk(card, (node) => {
    if (typeof node.type === 'string' && node.type.startsWith('Input.') && typeof node.id === 'string')
      inputs[node.id] = node.value ?? '';
  });
  return inputs;
}

/**
 * Saves each step of a conversation as `NN-step.json` (or a screenshot, `NN-step.png`) in a folder whose files are removed when
 * created (its subfolders, another test's, are left alone).
 */
export class Artifacts {
  private count = 0;

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isFile()) rmSync(path.join(dir, entry.name), { force: true });
  }

  /** Writes `content` (card JSON and what the playground's page showed) as the next numbered step. */
  save(step: string, content: unknown): string {
    const file = this.next(step, 'json');
    writeFileSync(file, `${JSON.stringify(content, null, 2)}\n`);
    return file;
  }

  /** The path of the next numbered step's file (a screenshot: `extension` png). */
  next(step: string, extension: string): string {
    this.count += 1;
    return path.join(this.dir, `${String(this.count).padStart(2, '0')}-${step}.${extension}`);
  }
}
