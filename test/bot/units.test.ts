import { createHmac } from 'node:crypto';
import { MemoryStorage } from 'botbuilder';
import { StewardApiError, StewardNetworkError } from '../../src/client';
import { plainFailure } from '../../src/bot/apiFailures';
import { readForm, submissionKey } from '../../src/bot/requests/submitRequest';
import { signatureMatches } from '../../src/bot/notifications';
import { WebhookState } from '../../src/bot/webhookState';
import { WelcomeState } from '../../src/bot/welcome/welcomeState';

const call = { operationId: 'getJob', clientRequestId: 'client-1', attempts: 1 };
const apiError = (status: number, extra: { retryAfterMs?: number } = {}) =>
  new StewardApiError(
    { status, code: 'unexpectedResponse', message: 'raw message', requestId: 'req-1', ...extra },
    call,
  );

describe('plain failures', () => {
  it('says what happened in a sentence, with the request id, never the raw error', () => {
    expect(plainFailure(apiError(403), 'request', 'showRequest')).toMatchObject({
      message: 'You are not allowed to show that request.',
      requestId: 'req-1',
    });
    expect(plainFailure(apiError(404), 'template', 'openTemplate').message).toBe(
      'Sorry, that template no longer exists.',
    );
    expect(plainFailure(apiError(429, { retryAfterMs: 42_000 }), 'requests', 'listRequests').message).toMatch(
      /busy.*about 42 seconds/,
    );
    const down = plainFailure(apiError(503), 'requests', 'listRequests');
    expect(down.message).toMatch(/^Sorry, Steward had a problem/);
    expect(down.message).not.toContain('raw message');
    const network = plainFailure(
      new StewardNetworkError('ECONNREFUSED', call, new Error('x')),
      'requests',
      'listRequests',
    );
    expect(network).toMatchObject({
      requestId: 'client-1',
      message: expect.stringMatching(/could not reach/),
    });
  });
});

describe('webhook signatures', () => {
  it('match only the hex HMAC-SHA256 of the exact body under the secret', () => {
    const body = Buffer.from('{"a":1}');
    const good = createHmac('sha256', 's3cret').update(body).digest('hex');
    expect(signatureMatches(body, good, 's3cret')).toBe(true);
    expect(signatureMatches(body, good.toUpperCase(), 's3cret')).toBe(true);
    expect(signatureMatches(body, good, 'other')).toBe(false);
    expect(signatureMatches(Buffer.from('{"a": 1}'), good, 's3cret')).toBe(false);
    expect(signatureMatches(body, undefined, 's3cret')).toBe(false);
    expect(signatureMatches(body, 'zz', 's3cret')).toBe(false);
  });
});

describe('the request form', () => {
  it('reads answers and says what is wrong with them', () => {
    expect(readForm({ templateId: 'p', name: ' Falcon ', owners: 'a@x.com, b@x.com,', members: '' })).toEqual(
      {
        // Left blank, the description and welcome message are left out: the template's defaults apply.
        values: {
          name: 'Falcon',
          description: undefined,
          welcomeMessage: undefined,
          owners: ['a@x.com', 'b@x.com'],
          members: [],
        },
        problems: [],
        people: [],
      },
    );
    expect(readForm({ templateId: 'p', name: '' }).problems).toEqual(['Give the team a name.']);
    // Said with the name's length, since no input cuts pasted text any more.
    expect(readForm({ templateId: 'p', name: 'x'.repeat(257) }).problems[0]).toBe(
      'The team name has 257 characters: keep it to at most 256.',
    );
    expect(readForm({ templateId: 'p', name: 'x'.repeat(256) }).problems).toEqual([]);
    expect(readForm({ templateId: 'p', name: 'a:b' }).problems[0]).toMatch(/cannot contain/);
    expect(readForm({ templateId: 'p', name: 'ok', welcomeMessage: 'w'.repeat(4001) }).problems[0]).toMatch(
      /4,000/,
    );
    expect(readForm({ templateId: 'p', name: 'ok', name2: 1 } as never).problems).toEqual([]);
  });

  it('derives one idempotency key per person, form and template', () => {
    const key = submissionKey('alex', 'form-1', 'project');
    expect(key).toMatch(/^bot-[0-9a-f]{60}$/);
    expect(submissionKey('alex', 'form-1', 'project')).toBe(key);
    expect(submissionKey('adele', 'form-1', 'project')).not.toBe(key);
    expect(submissionKey('alex', 'form-2', 'project')).not.toBe(key);
  });
});

describe('the bot state', () => {
  it('creates the webhook registration and the welcome mark once', async () => {
    const storage = new MemoryStorage();
    const webhook = new WebhookState(storage);
    const welcome = new WelcomeState(storage);
    expect(await webhook.createWebhook({ url: 'u', secret: 'first', hookId: null })).toBe(true);
    expect(await webhook.createWebhook({ url: 'u', secret: 'second', hookId: null })).toBe(false);
    expect((await webhook.webhook())?.secret).toBe('first');
    expect(await welcome.markWelcomed('c1')).toBe(true);
    expect(await welcome.markWelcomed('c1')).toBe(false);
  });
});
