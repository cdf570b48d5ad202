import { request } from 'undici';
import type { CatalogTemplates } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, suiteSteward } from '../../support/steward';

// `a*a*a*a*b` against 150 "a"s held a backtracking engine for about 5 s per evaluation.
const ATTACK_INPUT = 'a'.repeat(150);
const HOSTILE_RULE = `/a*a*a*a*b/.test('${ATTACK_INPUT}') || true`;
const HOSTILE_CONVENTION = `H-<%= /a*a*a*a*b/.test('${ATTACK_INPUT}' + request.team.name) ? 'x' : request.team.name %>`;

describe.each(databaseKinds)('hostile rule regexes on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_JOB_POLL_MS: '50' },
    people: { patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  const save = (id: string, rules: string, namingConvention = 'T-<%= request.team.name %>') =>
    suite.app.call<{ error: { details: { target: string; message: string }[] } }>(
      'PUT',
      `/api/v1.0/catalog/templates/${id}`,
      {
        token: suite.patti,
        body: {
          templateConfiguration: { name: id, audienceTargeting: { enabled: true, rules } },
          newTeam: { namingConvention },
        },
      },
    );

  /** The time /healthz takes while `pending` runs: a held event loop delays it as long. */
  async function healthzDuring(pending: Promise<unknown>): Promise<number> {
    const started = Date.now();
    const health = await request(`${suite.app.url}/healthz`);
    await health.body.text();
    const waited = Date.now() - started;
    await pending;
    return waited;
  }

  test('a catalog with a catastrophic-on-backtracking audience rule answers, and so does /healthz', async () => {
    expect((await save('hostile-audience', HOSTILE_RULE)).status).toBe(200);
    const catalog = suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', {
      token: suite.alex,
    });
    const waited = await healthzDuring(catalog);
    const res = await catalog;
    expect(res.status).toBe(200);
    expect(res.body.value.map((t) => t.templateConfiguration.id)).toContain('hostile-audience');
    expect(waited).toBeLessThan(1_000);
  });

  test('a provisioning request through a hostile naming convention is answered at once', async () => {
    expect((await save('hostile-naming', 'true', HOSTILE_CONVENTION)).status).toBe(200);
    const provisioning = suite.app.call<{ id: string }>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'hostile-naming' }, team: { name: 'aaaa' } },
    });
    const waited = await healthzDuring(provisioning);
    expect((await provisioning).status).toBe(201);
    expect(waited).toBeLessThan(1_000);
  });

  test.each([
    ['a lookahead', '/^(\\w+)@(?=contoso)/.test(user.mail)', '(?='],
    ['a lookbehind', '/(?<=@)contoso/.test(user.mail)', '(?<='],
    ['a backreference', '/(\\w)\\1/.test(user.mail)', '\\1'],
  ])('%s is refused at save time with its position', async (_what, rules, construct) => {
    const res = await save('refused-regex', rules);
    expect(res.status).toBe(400);
    const detail = res.body.error.details.find(
      (d) => d.target === 'templateConfiguration.audienceTargeting.rules',
    );
    expect(detail?.message).toContain(`at character ${rules.indexOf(construct)}`);
    expect(detail?.message).toMatch(/linear-time engine/);
    const read = await suite.app.call('GET', '/api/v1.0/catalog/templates/refused-regex', {
      token: suite.patti,
    });
    expect(read.status).toBe(404);
  });
});
