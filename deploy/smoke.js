#!/usr/bin/env node
/**
 * Smoke test of a running Steward (embedded mode): health and readiness, the bot answering "help"
 * and "new team" on /api/messages with rendered Adaptive Cards, a token from the token command,
 * one provisioning request followed to completion. Plain Node, no dependencies, so it runs
 * in the production image after the dev dependencies are pruned.
 *
 *   node deploy/smoke.js http://127.0.0.1:3978 [token command…]
 *
 * The token command (default: node dist/cli/token.js) is run with `--user alexw@example.com`
 * appended and must print the token. Exits 0 when every step passed, 1 with the failing step.
 */
const { execFileSync } = require('node:child_process');

const [base, ...tokenCommand] = process.argv.slice(2);
if (!base) {
  process.stderr.write('usage: node deploy/smoke.js <base url> [token command…]\n');
  process.exit(2);
}
const command = tokenCommand.length > 0 ? tokenCommand : [process.execPath, 'dist/cli/token.js'];

class SmokeFailure extends Error {}

async function call(path, token, body) {
  const res = await fetch(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text.startsWith('{') ? JSON.parse(text) : undefined, text };
}

function expect(what, condition, detail) {
  if (!condition) throw new SmokeFailure(`${what}: ${detail}`);
  process.stdout.write(`ok   ${what}\n`);
}

/**
 * One chat message to the bot, as a loopback sender in local mode (no Microsoft App Id): with
 * `deliveryMode: expectReplies` the bot's replies come back in the response, so no connector is
 * needed. Answers the attachments of the replies.
 */
async function chat(text) {
  const res = await fetch(`${base}/api/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      type: 'message',
      id: `smoke-${Date.now()}`,
      text,
      deliveryMode: 'expectReplies',
      channelId: 'msteams',
      serviceUrl: 'http://127.0.0.1:9',
      locale: 'en-US',
      // Alex Wilber of the demo directory, as the Agents Playground signs him in.
      from: { id: '29:smoke', aadObjectId: '00000000-0000-0000-0000-000000000020', name: 'Alex Wilber' },
      recipient: { id: '28:steward' },
      conversation: { id: 'smoke', conversationType: 'personal' },
    }),
  });
  const body = await res.text();
  let replies = [];
  try {
    replies = JSON.parse(body).activities ?? [];
  } catch {
    // not JSON: reported below with the status
  }
  return { status: res.status, body, attachments: replies.flatMap((reply) => reply.attachments ?? []) };
}

/** Whether an attachment is a rendered Adaptive Card: no template expression left in it. */
function isRenderedCard(attachment) {
  const json = JSON.stringify(attachment.content ?? {});
  return (
    attachment.contentType === 'application/vnd.microsoft.card.adaptive' &&
    attachment.content.type === 'AdaptiveCard' &&
    Array.isArray(attachment.content.body) &&
    attachment.content.body.length > 0 &&
    !json.includes('${')
  );
}

async function main() {
  const health = await call('/healthz');
  expect('GET /healthz answers 200', health.status === 200, `${health.status} ${health.text}`);
  const ready = await call('/readyz');
  expect('GET /readyz answers 200', ready.status === 200, `${ready.status} ${ready.text}`);

  for (const [text, heading] of [
    ['help', 'What I understand'],
    ['new team', 'Choose a template'],
  ]) {
    const answer = await chat(text);
    const card = answer.attachments.find(isRenderedCard);
    expect(
      `the bot answers "${text}" with a rendered Adaptive Card`,
      answer.status === 200 && card !== undefined && JSON.stringify(card.content).includes(heading),
      `${answer.status} ${answer.body.slice(0, 500)}`,
    );
  }

  const token = execFileSync(command[0], [...command.slice(1), '--user', 'alexw@example.com'], {
    encoding: 'utf8',
  }).trim();
  expect('the token command prints a token', /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token), 'not a JWT');

  const templates = await call('/api/v1.0/me/catalog/templates', token);
  expect('the token is accepted', templates.status === 200, `${templates.status} ${templates.text}`);

  const name = `Smoke ${Date.now()}`;
  const created = await call('/api/v1.0/teams/provisioning', token, {
    template: { id: 'project' },
    team: { name },
  });
  expect('a provisioning request is accepted', created.status === 201, `${created.status} ${created.text}`);
  const deadline = Date.now() + 30_000;
  let job;
  do {
    await new Promise((resolve) => setTimeout(resolve, 250));
    job = (await call(`/api/v1.0/jobs/${created.json.id}`, token)).json;
  } while (job && !['completed', 'failed'].includes(job.status) && Date.now() < deadline);
  expect('the provisioning job completes', job?.status === 'completed', JSON.stringify(job));
}

main().catch((error) => {
  process.stderr.write(`FAIL ${error instanceof SmokeFailure ? error.message : error.stack}\n`);
  process.exit(1);
});
