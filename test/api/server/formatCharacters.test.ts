import type { CatalogTemplate, Job } from '../../../src/contract';
import { databaseKinds } from '../../support/databases';
import { NAMED, suiteSteward } from '../../support/steward';
import { rowCount } from '../../support/rows';

type ErrorBody = { error: { code: string; details?: { code: string; target: string; message: string }[] } };

/**
 * Format characters that change how text reads (bidirectional marks, embeddings, overrides and
 * isolates; deprecated shaping controls; interlinear annotations) are refused wherever control
 * characters are: `RTL\u202Egnp.exe` would show in Teams as `RTLexe.png`.
 */
const DIRECTION = [
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x206a,
  0x206f, 0xfff9, 0xfffb,
];

describe.each(databaseKinds)('format characters that change how text reads, on %s', (kind) => {
  const suite = suiteSteward(kind, {
    env: { STEWARD_WORKER_CONCURRENCY: '0' },
    people: { alex: NAMED.alex },
  });

  const jobs = () => rowCount(suite.app, 'jobs');
  const provision = (team: Record<string, unknown>) =>
    suite.app.call<Job & ErrorBody>('POST', '/api/v1.0/teams/provisioning', {
      token: suite.alex,
      body: { template: { id: 'project' }, team },
    });
  const refusedAt = (res: { status: number; body: unknown }, target: string, code: string) => {
    expect(res.status).toBe(400);
    expect((res.body as ErrorBody).error.details).toEqual([
      expect.objectContaining({ code: 'formatCharacter', target, message: expect.stringContaining(code) }),
    ]);
  };

  test('a right-to-left override in a team name is a 400 naming the field, and no job is created', async () => {
    const before = await jobs();
    refusedAt(await provision({ name: 'RTL\u202Egnp.exe' }), 'body.team.name', 'U+202E');
    for (const codePoint of DIRECTION) {
      const code = `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
      refusedAt(
        await provision({ name: `Apollo ${String.fromCodePoint(codePoint)}x` }),
        'body.team.name',
        code,
      );
    }
    // Where line breaks are allowed, these are not.
    refusedAt(
      await provision({ name: 'Apollo', description: 'Budget \u2067approved\u2069' }),
      'body.team.description',
      'U+2067',
    );
    expect(await jobs()).toBe(before);
  });

  test('other requests refuse them too: a template, a hook, a metadata key', async () => {
    const original = (
      await suite.app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/project', {
        token: suite.megan,
      })
    ).body;
    const put = await suite.app.call('PUT', '/api/v1.0/catalog/templates/project', {
      token: suite.megan,
      body: {
        ...original,
        templateConfiguration: { ...original.templateConfiguration, name: 'Pro\u202Ejects' },
      },
    });
    refusedAt(put, 'body.templateConfiguration.name', 'U+202E');
    const hook = await suite.app.call('POST', '/api/v1.0/hooks', {
      token: suite.megan,
      body: { name: 'Hook \u200F', config: { url: 'http://127.0.0.1/hook' }, events: ['team_created'] },
    });
    refusedAt(hook, 'body.name', 'U+200F');
    const meta = await suite.app.call('PUT', '/api/v1.0/teams/whatever/metadata/project', {
      token: suite.megan,
      body: { 'cost\u202Dcentre': 'x' },
    });
    refusedAt(meta, 'body.cost\u202Dcentre', 'U+202D');
  });

  test('format characters written text needs stay allowed: joiners, emoji sequences, flags, soft hyphens', async () => {
    for (const name of [
      'Dev \u{1F469}\u200D\u{1F4BB}', // woman technologist: a zero-width joiner sequence
      'می\u200Cخواهم', // Persian, with a zero-width non-joiner
      'Wales \u{1F3F4}\u{E0067}\u{E0062}\u{E0077}\u{E006C}\u{E0073}\u{E007F}', // a tag sequence
      'Infra\u00ADstructure',
      'עברית team', // right-to-left text itself is fine
    ]) {
      const res = await provision({ name });
      expect([name, res.status]).toEqual([name, 201]);
    }
  });
});
