import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An activity as the fake connector received it. */
export interface Sent {
  kind: 'create' | 'send' | 'update' | 'refused';
  conversationId: string;
  /** The id the connector gave the message (or the id updated). */
  activityId: string;
  body: Record<string, unknown>;
}

/** An Adaptive Card attachment's content, as sent. */
export type SentCard = Record<string, unknown> & { body?: unknown[]; actions?: unknown[] };

/**
 * A Bot Connector on loopback that speaks the Bot Framework REST protocol the bot uses (create a
 * conversation, send, reply, update) and records everything, so tests see exactly what Teams would.
 */
export class FakeConnector {
  readonly sent: Sent[] = [];
  /** When each activity arrived (`Date.now()`). */
  readonly arrivedAt = new WeakMap<Sent, number>();
  /**
   * People (by AAD object id) the bot cannot start a chat with, as when the app is not installed
   * for them: Teams answers 403 to creating the conversation.
   */
  readonly unreachable = new Set<string>();
  private server!: Server;
  private counter = 0;
  url = '';

  /** Starts listening on 127.0.0.1. */
  async start(): Promise<void> {
    this.server = createServer(async (req, res) => {
      const body = await readJson(req);
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const reply = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && path === '/v3/conversations') {
        const members = (body.members ?? []) as Array<{ aadObjectId?: string; id?: string }>;
        if (
          members.some((m) => this.unreachable.has(m.aadObjectId ?? '') || this.unreachable.has(m.id ?? ''))
        ) {
          this.record({ kind: 'refused', conversationId: '', activityId: '', body });
          return reply(403, {
            error: { code: 'Forbidden', message: 'The bot is not part of the conversation roster.' },
          });
        }
        const conversationId = `created-${++this.counter}`;
        this.record({ kind: 'create', conversationId, activityId: '', body });
        return reply(201, { id: conversationId });
      }
      const send = /^\/v3\/conversations\/([^/]+)\/activities(?:\/([^/]+))?$/.exec(path);
      if (send && req.method === 'POST') {
        const activityId = `activity-${++this.counter}`;
        this.record({ kind: 'send', conversationId: decodeURIComponent(send[1]!), activityId, body });
        return reply(200, { id: activityId });
      }
      if (send && send[2] && req.method === 'PUT') {
        const activityId = decodeURIComponent(send[2]);
        this.record({ kind: 'update', conversationId: decodeURIComponent(send[1]!), activityId, body });
        return reply(200, { id: activityId });
      }
      reply(404, { error: { code: 'notFound', message: `${req.method} ${path}` } });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private record(sent: Sent): void {
    this.sent.push(sent);
    this.arrivedAt.set(sent, Date.now());
  }

  /** Stops listening. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** Messages posted (not updates) in a conversation, from index `from` on. */
  messages(conversationId: string, from = 0): Sent[] {
    return this.sent.slice(from).filter((s) => s.kind === 'send' && s.conversationId === conversationId);
  }

  /** The card of a message as it stands now: the last update of it, else as it was posted. */
  currentCard(activityId: string): SentCard | undefined {
    const versions = this.sent.filter(
      (s) => s.activityId === activityId && (s.kind === 'send' || s.kind === 'update'),
    );
    const last = versions[versions.length - 1];
    return last ? cardOf(last.body) : undefined;
  }

  /** How many times a message was updated. */
  updates(activityId: string): number {
    return this.sent.filter((s) => s.kind === 'update' && s.activityId === activityId).length;
  }

  /** Waits until `predicate` holds over what was sent (polling every 25 ms). */
  async waitFor<T>(predicate: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = predicate();
      if (value) return value;
      if (Date.now() > deadline) throw new Error('timed out waiting for the bot');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** The first Adaptive Card of an activity body, if any. */
export function cardOf(body: Record<string, unknown>): SentCard | undefined {
  const attachments = body.attachments as Array<{ contentType: string; content: SentCard }> | undefined;
  return attachments?.find((a) => a.contentType === 'application/vnd.microsoft.card.adaptive')?.content;
}

/** Every text of a card, flattened, to assert on what a person reads. */
export function cardText(card: unknown): string {
  const texts: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if ((key === 'text' || key === 'title' || key === 'value') && typeof value === 'string')
          texts.push(value);
        else walk(value);
      }
    }
  };
  walk(card);
  return texts.join('\n');
}

/** Calls `visit` on every object of a card (and the card itself), depth first. */
export function eachNode(card: unknown, visit: (node: Record<string, unknown>) => void): void {
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      visit(record);
      Object.values(record).forEach(walk);
    }
  };
  walk(card);
}

/** The inputs of a card (`Input.*` elements), by id. */
export function inputsOf(card: unknown): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  eachNode(card, (node) => {
    if (typeof node.type === 'string' && node.type.startsWith('Input.') && typeof node.id === 'string')
      found.set(node.id, node);
  });
  return found;
}

/** The texts of a card's TextBlocks, as Markdown source. */
export function textBlocksOf(card: unknown): string[] {
  const texts: string[] = [];
  eachNode(card, (node) => {
    if (node.type === 'TextBlock' && typeof node.text === 'string') texts.push(node.text);
  });
  return texts;
}

/** The value of the first FactSet fact of a card whose title is `title`. */
export function fact(card: unknown, title: string): string | undefined {
  let found: string | undefined;
  eachNode(card, (node) => {
    if (node.title === title && typeof node.value === 'string' && found === undefined) found = node.value;
  });
  return found;
}

/** The `Action.Execute` verbs of a card's buttons (its `refresh` clause is no button: see `refreshOf`). */
export function verbsOf(card: unknown): string[] {
  const verbs: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record.type === 'Action.Execute' && typeof record.verb === 'string') verbs.push(record.verb);
      Object.entries(record).forEach(([key, value]) => key !== 'refresh' && walk(value));
    }
  };
  walk(card);
  return verbs;
}

/** A card's Universal Actions `refresh` clause, if it has one. */
export function refreshOf(
  card: unknown,
): { action: { type: string; verb: string; data: Record<string, unknown> }; userIds?: string[] } | undefined {
  const refresh = (card as { refresh?: unknown } | undefined)?.refresh;
  return refresh as ReturnType<typeof refreshOf>;
}

/** The data of the first `Action.Execute` with `verb`. */
export function actionData(card: unknown, verb: string): Record<string, unknown> | undefined {
  let found: Record<string, unknown> | undefined;
  const walk = (node: unknown) => {
    if (found) return;
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (record.type === 'Action.Execute' && record.verb === verb && record.verb !== 'refreshApproval') {
        found = (record.data ?? {}) as Record<string, unknown>;
        return;
      }
      Object.entries(record).forEach(([key, value]) => key !== 'refresh' && walk(value));
    }
  };
  walk(card);
  return found;
}

/** The inputs of a card, by id. */
export function inputsById(card: unknown): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const record = node as Record<string, unknown>;
      if (
        typeof record.type === 'string' &&
        record.type.startsWith('Input.') &&
        typeof record.id === 'string'
      )
        found.set(record.id, record);
      Object.values(record).forEach(walk);
    }
  };
  walk(card);
  return found;
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
