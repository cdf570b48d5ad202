import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  findPlaygroundPerson,
  PLAYGROUND_PEOPLE,
  playgroundUser,
  renderPlaygroundConfig,
} from '../../src/cli/playgroundConfig';
import { SEED_TENANT_ID, seedUsers } from '../../src/store/seed/directory';
import { cardOf } from './support/cards';
import { type Playground, playgroundUnavailable, startPlayground } from './support/playground';

const root = path.resolve(__dirname, '..', '..');

describe('the Agents Playground config', () => {
  it('is the rendered config for Alex Wilber, so the two never drift', () => {
    expect(readFileSync(path.join(root, '.m365agentsplayground.yml'), 'utf8')).toBe(
      renderPlaygroundConfig('alex'),
    );
  });

  it('holds the embedded tenant and its six playground people, each as current user once', () => {
    for (const person of PLAYGROUND_PEOPLE) {
      const text = renderPlaygroundConfig(person);
      const me = playgroundUser(person);
      expect(text).toContain(`tenantId: ${SEED_TENANT_ID}\n`);
      expect(text).toContain(`currentUser:\n  id: ${me.id}\n  name: ${me.name}\n`);
      expect(text.match(/^ {2}- id: user-id-\d$/gm)).toHaveLength(5);
      for (const other of PLAYGROUND_PEOPLE) {
        const user = playgroundUser(other);
        const seed = seedUsers.find((u) => u.id === user.aadObjectId)!;
        expect(text).toContain(`aadObjectId: ${seed.id}\n`);
        expect(text).toContain(`userPrincipleName: ${seed.userPrincipalName}\n`);
      }
    }
  });

  it('holds only valid GUIDs in its GUID fields (Teams and the Agents Toolkit refuse anything else)', () => {
    const text = readFileSync(path.join(root, '.m365agentsplayground.yml'), 'utf8');
    const values = [...text.matchAll(/^\s*(?:tenantId|aadObjectId|aadGroupId|id): ([0-9a-f-]{30,})$/gm)];
    expect(values.length).toBeGreaterThanOrEqual(9);
    for (const [, value] of values) {
      expect(value).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    }
  });

  it('finds people by first name, UPN, object id or channel id', () => {
    expect(findPlaygroundPerson('Adele')).toBe('adele');
    expect(findPlaygroundPerson('isaiah@example.com')).toBe('isaiah');
    expect(findPlaygroundPerson('00000000-0000-0000-0000-000000000025')).toBe('lynne');
    expect(findPlaygroundPerson('user-id-1')).toBe('megan');
    expect(findPlaygroundPerson('siobhan')).toBeUndefined();
  });
});

/** A bot that records activities, answers messages with a card, then updates it, and answers invokes. */
function startEchoBot(): Promise<{ url: string; activities: Array<Record<string, unknown>>; close(): void }> {
  const activities: Array<Record<string, unknown>> = [];
  const card = (text: string) => ({
    contentType: 'application/vnd.microsoft.card.adaptive',
    content: { type: 'AdaptiveCard', version: '1.5', body: [{ type: 'TextBlock', text }] },
  });
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', async () => {
      // The playground also probes the endpoint with empty requests to tell whether the bot runs.
      if (!body) {
        res.writeHead(200);
        res.end();
        return;
      }
      const activity = JSON.parse(body) as Record<string, unknown>;
      activities.push(activity);
      if (activity.type === 'invoke') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ statusCode: 200, type: card('').contentType, value: card('clicked').content }),
        );
        return;
      }
      res.writeHead(200);
      res.end();
      if (activity.type !== 'message') return;
      const { serviceUrl, conversation } = activity as unknown as {
        serviceUrl: string;
        conversation: { id: string };
      };
      const activitiesUrl = `${serviceUrl}/v3/conversations/${encodeURIComponent(conversation.id)}/activities`;
      const headers = { 'content-type': 'application/json' };
      const sent = await fetch(activitiesUrl, {
        method: 'POST',
        headers,
        body: JSON.stringify({ type: 'message', attachments: [card(`you said ${activity.text}`)] }),
      });
      const { id } = (await sent.json()) as { id: string };
      await fetch(`${activitiesUrl}/${id}`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ type: 'message', id, attachments: [card('updated')] }),
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/api/messages`, activities, close: () => server.close() });
    }),
  );
}

const unavailable = playgroundUnavailable();
if (unavailable) {
  process.stderr.write(
    `\n*** SKIPPED: the Microsoft 365 Agents Playground cannot start: ${unavailable} ***\n\n`,
  );
}
const describeWithPlayground = unavailable ? describe.skip : describe;

describeWithPlayground('the playground harness, against a small echo bot', () => {
  let dir: string;
  let bot: Awaited<ReturnType<typeof startEchoBot>>;
  let playground: Playground;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'steward-playground-'));
    bot = await startEchoBot();
    playground = await startPlayground({ person: 'alex', botEndpoint: bot.url, dir });
  }, 60_000);

  afterAll(async () => {
    await playground?.close();
    bot?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('loads the config and sends the install as Alex, in the embedded tenant', async () => {
    const config = (await (await fetch(`${playground.url}/_internal/v1/config`)).json()) as {
      config: { tenantId: string; currentUser: { aadObjectId: string }; personalChat: { id: string } };
    };
    expect(config.config).toMatchObject({
      tenantId: SEED_TENANT_ID,
      currentUser: { aadObjectId: '00000000-0000-0000-0000-000000000020' },
      personalChat: { id: playground.conversationId },
    });
    await playground.install();
    await waitFor(() => bot.activities.some((a) => a.type === 'installationUpdate'));
    const install = bot.activities.find((a) => a.type === 'installationUpdate') as Record<string, never>;
    expect(install).toMatchObject({
      channelId: 'msteams',
      serviceUrl: `${playground.url}/_connector`,
      from: { id: 'user-id-0', aadObjectId: '00000000-0000-0000-0000-000000000020' },
      conversation: { id: playground.conversationId, conversationType: 'personal', tenantId: SEED_TENANT_ID },
    });
  });

  it('delivers a message to the bot and shows its card, then the update, on the page', async () => {
    await playground.say('hello');
    const posted = await playground.stream.waitFor('the updated card', (m) =>
      JSON.stringify(cardOf(m) ?? {}).includes('updated') ? m : undefined,
    );
    expect(playground.stream.events.map((e) => e.action)).toEqual(
      expect.arrayContaining(['createMessage', 'updateMessage']),
    );
    const answer = await playground.execute(posted.messageId, 'doIt', { k: 1 }, 'Do it');
    expect(answer).toMatchObject({ type: 'application/vnd.microsoft.card.adaptive' });
    const invoke = bot.activities.find((a) => a.type === 'invoke') as Record<string, never>;
    expect(invoke).toMatchObject({
      name: 'adaptiveCard/action',
      replyToId: posted.messageId,
      value: { action: { type: 'Action.Execute', verb: 'doIt', data: { k: 1 } } },
    });
  });

  it('refuses a message from someone outside the personal chat', async () => {
    await expect(
      fetch(`${playground.url}/_conversation/v1/conversations/${playground.conversationId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ from: { id: 'user-id-2' }, text: 'hi', textFormat: 'plain' }),
      }).then((res) => res.status),
    ).resolves.toBe(400);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
