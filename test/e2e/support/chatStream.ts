import { WebSocket } from 'undici';

/** An attachment of a message as the playground's page receives it. */
export interface StreamAttachment {
  contentType: string;
  content: unknown;
}

/** A message as the playground's page receives it (`createMessage` / `updateMessage` actions). */
export interface StreamMessage {
  messageId: string;
  timestamp: number;
  from: { id: string };
  text?: string;
  attachments: StreamAttachment[];
}

/** One push of the playground to its page. */
export interface StreamEvent {
  action: 'createMessage' | 'updateMessage' | 'typing' | string;
  actionConversationId?: string;
  message?: StreamMessage;
  /** When this process received it (ms since the epoch). */
  receivedAt: number;
}

/**
 * What the playground's web page sees: its conversation websocket
 * (`/_ws_conversation/v1/conversations/stream`), recorded in order, with the latest version of
 * every message (the bot's `updateActivity` calls arrive as `updateMessage`).
 */
export class ChatStream {
  readonly events: StreamEvent[] = [];
  private readonly latest = new Map<string, StreamMessage>();
  private socket: WebSocket | undefined;

  private constructor() {}

  /** Connects to the playground at `baseUrl` (http://127.0.0.1:port) and resolves once open. */
  static async open(baseUrl: string, timeoutMs = 10_000): Promise<ChatStream> {
    const stream = new ChatStream();
    const url = `${baseUrl.replace(/^http/, 'ws')}/_ws_conversation/v1/conversations/stream`;
    const socket = new WebSocket(url);
    stream.socket = socket;
    socket.addEventListener('message', (event) => stream.record(String(event.data)));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no websocket at ${url} within ${timeoutMs} ms`)),
        timeoutMs,
      );
      socket.addEventListener('open', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error(`websocket ${url} failed`));
      });
    });
    return stream;
  }

  private record(data: string): void {
    let event: StreamEvent;
    try {
      event = { ...(JSON.parse(data) as Omit<StreamEvent, 'receivedAt'>), receivedAt: Date.now() };
    } catch {
      return;
    }
    this.events.push(event);
    if (event.message?.messageId && (event.action === 'createMessage' || event.action === 'updateMessage')) {
      this.latest.set(event.message.messageId, event.message);
    }
  }

  /** The current version of a message, or undefined when it never arrived. */
  message(messageId: string): StreamMessage | undefined {
    return this.latest.get(messageId);
  }

  /** Every message in arrival order of its first version, each in its current version. */
  messages(): StreamMessage[] {
    return [...this.latest.values()];
  }

  /**
   * Waits until `find` returns something for one of the messages (current versions, newest first),
   * checking at every push; rejects after `timeoutMs` saying what it waited for.
   */
  async waitFor<T>(
    what: string,
    find: (message: StreamMessage) => T | undefined,
    timeoutMs = 20_000,
  ): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      for (const message of this.messages().reverse()) {
        const found = find(message);
        if (found !== undefined) return found;
      }
      if (Date.now() > deadline) {
        const seen = this.messages().map((m) => m.text ?? m.attachments.map((a) => a.contentType).join(','));
        throw new Error(
          `timed out after ${timeoutMs} ms waiting for ${what}; the page shows: ${JSON.stringify(seen)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Closes the websocket. */
  close(): void {
    this.socket?.close();
  }
}
