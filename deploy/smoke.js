#!/usr/bin/env node
/**
 * Smoke test of a running Steward (embedded mode): health and readiness, a token from the token
 * command, one provisioning request followed to completion. Plain Node, no dependencies, so it runs
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

async function main() {
  const health = await call('/healthz');
  expect('GET /healthz answers 200', health.status === 200, `${health.status} ${health.text}`);
  const ready = await call('/readyz');
  expect('GET /readyz answers 200', ready.status === 200, `${ready.status} ${ready.text}`);

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
