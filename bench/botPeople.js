'use strict';
// The people the bot benchmark acts as: seed people of the demo tenant as Teams presents them to a
// bot, the activity their message arrives as, and the requests they made before the run.
const { randomUUID } = require('node:crypto');
const { DEFAULT_TENANT_ID } = require('../dist/config');
const { seedUsers } = require('../dist/store/seed/directory');
const { EmbeddedTokenIssuer } = require('../dist/services/access/tokens');

/** How many people talk to the bot at once in the concurrent phases. */
const CONCURRENCY = 10;
const JOBS_PER_PERSON = 3;
const TEMPLATE = 'project';

/** The first CONCURRENCY seed people (Alex first), as Teams presents them to a bot. */
const PEOPLE = seedUsers.slice(0, CONCURRENCY).map((user, i) => ({
  aadObjectId: user.id,
  name: user.displayName,
  teamsId: `29:bench-${i}`,
  conversationId: `a:personal-bench-${i}`,
}));

/** The activity a person's message arrives as, shaped as the Bot Connector shapes Teams' messages. */
function activity(connectorUrl, who, text) {
  return {
    type: 'message',
    id: randomUUID(),
    channelId: 'msteams',
    serviceUrl: connectorUrl,
    timestamp: new Date().toISOString(),
    from: { id: who.teamsId, name: who.name, aadObjectId: who.aadObjectId },
    recipient: { id: '28:steward-bot', name: 'Steward' },
    conversation: { id: who.conversationId, conversationType: 'personal', tenantId: DEFAULT_TENANT_ID },
    channelData: { tenant: { id: DEFAULT_TENANT_ID } },
    locale: 'en-US',
    text,
  };
}

/** Gives each person JOBS_PER_PERSON completed requests, so that "my requests" lists something. */
async function seedJobs(steward, secret) {
  const issuer = new EmbeddedTokenIssuer(secret, DEFAULT_TENANT_ID);
  const call = async (token, method, path, body) => {
    const res = await fetch(`${steward.url}/api/v1.0${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`);
    return JSON.parse(text);
  };
  const tokens = await Promise.all(PEOPLE.map((p) => issuer.mint({ id: p.aadObjectId, roles: [] }, 3600)));
  for (const [i, token] of tokens.entries()) {
    for (let j = 0; j < JOBS_PER_PERSON; j += 1)
      await call(token, 'POST', '/teams/provisioning', {
        template: { id: TEMPLATE },
        team: { name: `bot bench ${i} ${j}` },
      });
  }
  const deadline = Date.now() + 60_000;
  for (const token of tokens) {
    for (;;) {
      const jobs = (await call(token, 'GET', '/me/jobs')).value;
      if (jobs.every((job) => job.status === 'completed')) break;
      if (Date.now() > deadline) throw new Error('the seeded requests did not complete within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1000)); // lets the webhook deliveries settle
}

module.exports = { activity, CONCURRENCY, JOBS_PER_PERSON, PEOPLE, seedJobs };
