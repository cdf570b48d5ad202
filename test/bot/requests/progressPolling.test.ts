import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemoryStorage } from 'botbuilder';
import { StewardClient } from '../../../src/client';
import type { BotIdentity } from '../../../src/bot/shared/botIdentity';
import type { Messenger } from '../../../src/bot/messenger';
import { JobReads } from '../../../src/bot/requests/jobReads';
import { ProgressTracker } from '../../../src/bot/requests/progress';
import { RequestState } from '../../../src/bot/requests/requestState';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Memory storage that lists keys, as the bot's stores do (so unfinished requests can be resumed). */
class ListedStorage extends MemoryStorage {
  private readonly keys = new Set<string>();
  override async write(changes: Record<string, object>): Promise<void> {
    for (const key of Object.keys(changes)) this.keys.add(key);
    await super.write(changes);
  }
  override async delete(keys: string[]): Promise<void> {
    for (const key of keys) this.keys.delete(key);
    await super.delete(keys);
  }
  async keysStartingWith(prefix: string, limit: number): Promise<string[]> {
    return [...this.keys].filter((key) => key.startsWith(prefix)).slice(0, limit);
  }
}

describe('the polls of open requests', () => {
  let server: Server;
  const arrivals: number[] = [];

  /** How late a read made on behalf of a requester is answered (the polls, the bot's own, at once). */
  let requesterReadMs = 0;
  beforeAll(async () => {
    // `GET /jobs?ids=`: every job waiting for one approval, so the polls go on.
    server = createServer((req, res) => {
      arrivals.push(Date.now());
      const ids = new URL(req.url!, 'http://127.0.0.1').searchParams.get('ids')!.split(',');
      const approval = {
        id: 'approval-1',
        status: 'pending',
        approvers: [{ id: 'a', displayName: 'Siobhán' }],
      };
      const value = ids.map((id) => ({ id, status: 'waiting', progress: 10, log: [], data: { approval } }));
      const answer = () => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ value }));
      };
      if (req.headers['x-steward-on-behalf-of']) setTimeout(answer, requesterReadMs);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('reach Steward at least the polling spacing apart, however slow one was to send', async () => {
    const { port } = server.address() as AddressInfo;
    const client = new StewardClient({ baseUrl: `http://127.0.0.1:${port}/api/v1.0` });
    // Every other app token takes 300 ms (a token renewed, a busy process): that poll reaches
    // Steward late, and the one after it must still keep its distance.
    let tokens = 0;
    const identity = {
      mode: 'production',
      appToken: async () => {
        if (tokens++ % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 300));
        return 'app-token';
      },
    } as unknown as BotIdentity;
    const requestState = new RequestState(new ListedStorage());
    const progress = new ProgressTracker({
      client,
      identity,
      requestState,
      messenger: {} as Messenger,
      reads: new JobReads({ client, identity, burst: 1, spacingMs: 200 }),
      pollMs: { initial: 200, max: 200 },
      log: silent,
    });
    // Five requests opened 50 ms apart: one is nearly always due when a poll's answer comes.
    for (let n = 1; n <= 5; n++) {
      await requestState.markUnfinished(`job-${n}`);
      expect(await progress.resume()).toBe(n);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const deadline = Date.now() + 10_000;
    while (arrivals.length < 12 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await progress.stop();

    expect(arrivals.length).toBeGreaterThanOrEqual(12);
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(195);
  });

  it('draw a card whose note changed even when a newer poll of the unchanged job landed first', async () => {
    const { port } = server.address() as AddressInfo;
    const client = new StewardClient({ baseUrl: `http://127.0.0.1:${port}/api/v1.0` });
    const identity = { mode: 'production', appToken: async () => 'app-token' } as unknown as BotIdentity;
    const requestState = new RequestState(new ListedStorage());
    const drawn: string[] = [];
    const messenger = {
      update: async (_at: unknown, card: unknown) => void drawn.push(JSON.stringify(card)),
    } as unknown as Messenger;
    const progress = new ProgressTracker({
      client,
      identity,
      requestState,
      messenger,
      reads: new JobReads({ client, identity, burst: 1, spacingMs: 50 }),
      pollMs: { initial: 50, max: 100 },
      log: silent,
    });
    await requestState.saveProgress('job-n', {
      reference: { conversation: { id: 'chat' } } as never,
      activityId: 'card-1',
      requesterId: 'alex',
      pictureUrl: null,
      unreachableApprovers: ['Siobhán'],
    });
    await requestState.markUnfinished('job-n');
    await progress.resume();
    const until = async (predicate: () => boolean) => {
      const deadline = Date.now() + 5_000;
      while (!predicate() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return predicate();
    };
    expect(await until(() => drawn.length > 0)).toBe(true);
    expect(drawn.at(-1)).toMatch(/Siobhán/);

    // Siobhán got her card: the requester's read that redraws it answers after the polls' reads.
    requesterReadMs = 600;
    await progress.noteUnreachable('job-n', []);
    const reached = await until(() => !/could not reach/i.test(drawn.at(-1)!));
    await progress.stop();
    requesterReadMs = 0;
    expect(reached).toBe(true);
  });
});
