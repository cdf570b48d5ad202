import type { ApiError, CatalogTemplate, CatalogTemplates, PermanentMember } from '../../../src/contract';
import { ALEX_TEMPLATES, templateIds as ids } from '../../support/catalogs';
import { databaseKinds } from '../../support/databases';
import { PEOPLE, suiteSteward } from '../../support/steward';

describe.each(databaseKinds)('template catalog on %s', (kind) => {
  const suite = suiteSteward(kind, {
    people: { alex: { id: PEOPLE.alex }, patti: { id: PEOPLE.patti, roles: ['CATALOG_MANAGER'] } },
  });

  const minimal = (name: string, extra: Record<string, unknown> = {}) => ({
    templateConfiguration: { name, ...extra },
    newTeam: { namingConvention: 'T-<%= request.team.name %>' },
  });

  describe('listing', () => {
    test('a catalog manager sees every template, enabled or not', async () => {
      const res = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/catalog/templates', {
        token: suite.patti,
      });
      expect(res.status).toBe(200);
      expect(res.body['@odata.count']).toBe(res.body.value.length);
      expect(res.body['@odata.context']).toContain('$metadata#catalogTemplates');
      expect(ids(res.body)).toEqual(expect.arrayContaining(['classic-community', 'project', 'legal-matter']));
      expect(
        res.body.value.find((t) => t.templateConfiguration.id === 'classic-community')?.templateConfiguration
          .enabled,
      ).toBe(false);
    });

    test("a plain user's catalog holds only enabled templates targeted to them", async () => {
      const res = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', {
        token: suite.alex,
      });
      expect(res.status).toBe(200);
      expect(ids(res.body)).toEqual(ALEX_TEMPLATES);
    });

    test('a plain user reads which templates are not offered to them and who each is for, never the rules', async () => {
      const res = await suite.app.call<{
        value: Array<{
          id: string;
          name: string;
          description: string;
          workspaceType: string;
          audience: string | null;
        }>;
      }>('GET', '/api/v1.0/me/catalog/unavailableTemplates', { token: suite.alex });
      expect(res.status).toBe(200);
      const legal = res.body.value.find((t) => t.id === 'legal-matter');
      expect(legal).toEqual({
        id: 'legal-matter',
        name: 'Legal matter',
        description: expect.any(String),
        workspaceType: 'team',
        audience: 'Department is Legal',
      });
      // Offered and disabled templates are not in it; no rule's code is.
      const away = res.body.value.map((t) => t.id);
      expect(away).not.toContain('project');
      expect(away).not.toContain('classic-community');
      expect(JSON.stringify(res.body)).not.toContain('user.department');
    });

    test('audience rules are evaluated against each caller (country and department)', async () => {
      // Zoé Lefèvre and other seeded people: find a French marketer through the directory.
      const users = await suite.app.call<{
        value: Array<{ id: string; country: string; department: string }>;
      }>('GET', '/api/v1.0/users?$top=999', { token: suite.alex });
      const frMarketer = users.body.value.find((u) => u.country === 'FR' && u.department === 'Marketing');
      expect(frMarketer).toBeDefined();
      const token = await suite.app.userToken(frMarketer!.id);
      const res = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', { token });
      expect(ids(res.body)).toContain('marketing-campaign-fr-be');
      const mine = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', {
        token: suite.alex,
      });
      expect(ids(mine.body)).not.toContain('marketing-campaign-fr-be');
    });

    test("a change to a template's audience is seen on the caller's next read", async () => {
      const mine = async () =>
        ids(
          (
            await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', {
              token: suite.alex,
            })
          ).body,
        );
      const target = async (rules: string) => {
        const res = await suite.app.call('PUT', '/api/v1.0/catalog/templates/audience-change', {
          token: suite.patti,
          body: minimal('Audience change', { enabled: true, audienceTargeting: { enabled: true, rules } }),
        });
        expect(res.status).toBe(200);
      };
      await target("user.department === 'Nobody'");
      expect(await mine()).not.toContain('audience-change');
      expect(await mine()).not.toContain('audience-change');
      await target(`user.id === '${PEOPLE.alex}'`);
      expect(await mine()).toContain('audience-change');
      await target("user.department === 'Nobody'");
      expect(await mine()).not.toContain('audience-change');
    });

    test('a signed token for someone the directory does not know is refused (401)', async () => {
      const token = await suite.app.userToken('99999999-0000-0000-0000-000000000999', [], {
        name: 'Guest',
        upn: 'g@x.test',
      });
      const res = await suite.app.call<ApiError>('GET', '/api/v1.0/me/catalog/templates', { token });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/nobody in the directory/);
      // The same token is refused for provisioning too: no team is ever owned by nobody.
      const created = await suite.app.call('POST', '/api/v1.0/teams/provisioning', {
        token,
        body: { template: { id: 'project' }, team: { name: 'Nobody owns this' } },
      });
      expect(created.status).toBe(401);
    });

    test('an app token has no "me" catalog (403) but may list the whole catalog', async () => {
      const app1 = await suite.app.appToken('automation-app', ['AUTHORIZED_APP']);
      expect((await suite.app.call('GET', '/api/v1.0/me/catalog/templates', { token: app1 })).status).toBe(
        403,
      );
      expect((await suite.app.call('GET', '/api/v1.0/catalog/templates', { token: app1 })).status).toBe(200);
    });

    test('a plain user may not list the whole catalog', async () => {
      const res = await suite.app.call('GET', '/api/v1.0/catalog/templates', { token: suite.alex });
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: { code: 'forbidden' } });
    });
  });

  describe('one template', () => {
    test('a user reads a template targeted to them, and gets 404 for one that is not', async () => {
      const ok = await suite.app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/project', {
        token: suite.alex,
      });
      expect(ok.status).toBe(200);
      expect(ok.body.templateConfiguration.name).toBeTruthy();
      for (const hidden of ['legal-matter', 'classic-community', 'no-such-template']) {
        const res = await suite.app.call('GET', `/api/v1.0/catalog/templates/${hidden}`, {
          token: suite.alex,
        });
        expect(res.status).toBe(404);
      }
    });

    test('a catalog manager reads any template, including disabled ones', async () => {
      const res = await suite.app.call<CatalogTemplate>(
        'GET',
        '/api/v1.0/catalog/templates/classic-community',
        {
          token: suite.patti,
        },
      );
      expect(res.status).toBe(200);
      expect(res.body.templateConfiguration.enabled).toBe(false);
    });

    test('an id with characters outside the allowed set is 400', async () => {
      const res = await suite.app.call('GET', '/api/v1.0/catalog/templates/bad%20id', { token: suite.patti });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: { code: 'validationFailed', details: [{ target: 'path.template_id' }] },
      });
    });
  });

  describe('saving', () => {
    test('PUT creates, normalises string flags to booleans, resolves people, then replaces', async () => {
      const body = {
        templateConfiguration: {
          name: 'Research lab',
          enabled: 'true',
          singleton: 'false',
          approval: { requireApproval: 'true', approvalTeam: [{ id: 'adelev@example.com' }] },
          audienceTargeting: { enabled: true, rules: "user.department === 'Marketing'" },
        },
        newTeam: {
          namingConvention: 'LAB-<%= request.team.name %>',
          teamPrivacy: 'private',
          addRequesterAsTeamOwner: 'false',
        },
      };
      const created = await suite.app.call<CatalogTemplate>(
        'PUT',
        '/api/v1.0/catalog/templates/research-lab',
        {
          token: suite.patti,
          body,
        },
      );
      expect(created.status).toBe(200);
      const config = created.body.templateConfiguration;
      expect(config).toMatchObject({ id: 'research-lab', enabled: true, singleton: false });
      expect(config.approval).toEqual({
        requireApproval: true,
        approvalTeam: [{ id: PEOPLE.adele, name: 'Adele Vance' }],
        allowSelfApproval: false,
      });
      expect(created.body.newTeam.addRequesterAsTeamOwner).toBe(false);

      const mine = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', {
        token: suite.alex,
      });
      expect(ids(mine.body)).toContain('research-lab');

      const replaced = await suite.app.call<CatalogTemplate>(
        'PUT',
        '/api/v1.0/catalog/templates/research-lab',
        {
          token: suite.patti,
          body: {
            ...body,
            templateConfiguration: { ...body.templateConfiguration, name: 'Research lab v2', enabled: false },
          },
        },
      );
      expect(replaced.status).toBe(200);
      const read = await suite.app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/research-lab', {
        token: suite.patti,
      });
      expect(read.body.templateConfiguration).toMatchObject({ name: 'Research lab v2', enabled: false });
      const after = await suite.app.call<CatalogTemplates>('GET', '/api/v1.0/me/catalog/templates', {
        token: suite.alex,
      });
      expect(ids(after.body)).not.toContain('research-lab');
    });

    test.each([
      [
        'a rule that does not parse',
        { audienceTargeting: { enabled: true, rules: "user.country === 'FR' &&" } },
        'templateConfiguration.audienceTargeting.rules',
      ],
      [
        'an enabled audience with no rule',
        { audienceTargeting: { enabled: true, rules: '' } },
        'templateConfiguration.audienceTargeting.rules',
      ],
      [
        'approval without approvers',
        { approval: { requireApproval: true, approvalTeam: [] } },
        'templateConfiguration.approval.approvalTeam',
      ],
      [
        'an unknown approver',
        { approval: { requireApproval: true, approvalTeam: [{ id: 'nobody@example.com' }] } },
        'templateConfiguration.approval.approvalTeam[0].id',
      ],
      [
        'an unknown permanent owner',
        { permanentMembership: { owners: [{ id: 'ghost' }], members: [] } },
        'templateConfiguration.permanentMembership.owners[0].id',
      ],
      [
        'an unknown label',
        { sensitivityLabelId: 'no-such-label' },
        'templateConfiguration.sensitivityLabelId',
      ],
      ['a body id that differs from the path', { id: 'other-id' }, 'templateConfiguration.id'],
    ])('%s is 400 naming the field, and nothing is written', async (_name, extra, target) => {
      const res = await suite.app.call('PUT', '/api/v1.0/catalog/templates/rejected', {
        token: suite.patti,
        body: minimal('Rejected', extra),
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { code: 'validationFailed' } });
      expect(
        (res.body as { error: { details: Array<{ target: string }> } }).error.details.map((d) => d.target),
      ).toContain(target);
      expect(
        (await suite.app.call('GET', '/api/v1.0/catalog/templates/rejected', { token: suite.patti })).status,
      ).toBe(404);
    });

    test('translations of the name and description are kept and read back (an extension)', async () => {
      const translations = {
        fr: { name: 'Équipe X', description: 'Une équipe.' },
        'fr-CA': { name: 'Équipe X Québec' },
      };
      const saved = await suite.app.call('PUT', '/api/v1.0/catalog/templates/translated', {
        token: suite.patti,
        body: minimal('X team', { translations }),
      });
      expect(saved.status).toBeLessThan(300);
      const read = await suite.app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/translated', {
        token: suite.patti,
      });
      expect(read.body.templateConfiguration.translations).toEqual(translations);
    });

    test('a naming convention that does not parse is 400 with its position', async () => {
      const res = await suite.app.call<{ error: { details: Array<{ target: string; message: string }> } }>(
        'PUT',
        '/api/v1.0/catalog/templates/rejected',
        {
          token: suite.patti,
          body: {
            templateConfiguration: { name: 'X' },
            newTeam: { namingConvention: 'PRJ-<%= request.team. %>' },
          },
        },
      );
      expect(res.status).toBe(400);
      const detail = res.body.error.details.find((d) => d.target === 'newTeam.namingConvention');
      expect(detail?.message).toMatch(/position \d+/);
    });

    test.each([
      ['an unknown field', { templateConfiguration: { name: 'X', color: 'red' } }],
      ['a wrong type', { templateConfiguration: { name: 42 } }],
      ['an unknown enum value', { templateConfiguration: { name: 'X' }, newTeam: { teamPrivacy: 'secret' } }],
      [
        'a flag that is neither boolean nor "true"/"false"',
        { templateConfiguration: { name: 'X', enabled: 'yes' } },
      ],
      ['a missing required field', { templateConfiguration: {} }],
      ['a body that is not an object', [1, 2, 3]],
      [
        'a translation under something that is no language tag',
        { templateConfiguration: { name: 'X', translations: { 'français!': { name: 'Y' } } } },
      ],
      [
        'a translation with a field of its own',
        { templateConfiguration: { name: 'X', translations: { fr: { name: 'Y', color: 'red' } } } },
      ],
    ])('%s is 400 and writes nothing', async (_name, body) => {
      const res = await suite.app.call('PUT', '/api/v1.0/catalog/templates/rejected', {
        token: suite.patti,
        body,
      });
      expect(res.status).toBe(400);
      expect((res.body as { error: { details: unknown[] } }).error.details.length).toBeGreaterThan(0);
      expect(
        (await suite.app.call('GET', '/api/v1.0/catalog/templates/rejected', { token: suite.patti })).status,
      ).toBe(404);
    });

    test('a plain user may not save templates (403) and nothing changes', async () => {
      const res = await suite.app.call('PUT', '/api/v1.0/catalog/templates/project', {
        token: suite.alex,
        body: minimal('Hijacked'),
      });
      expect(res.status).toBe(403);
      const read = await suite.app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/project', {
        token: suite.patti,
      });
      expect(read.body.templateConfiguration.name).not.toBe('Hijacked');
    });
  });

  describe('permanent membership', () => {
    const path = '/api/v1.0/catalog/templates/project/permanent_membership';

    test('set resolves UPNs and mails to directory ids and names; get and by-role read it back', async () => {
      const set = await suite.app.call('PUT', path, {
        token: suite.megan,
        body: {
          owners: [{ id: 'pattif@example.com' }],
          members: [{ id: PEOPLE.isaiah }, { id: 'isaiahl@example.com' }],
        },
      });
      expect(set.status).toBe(200);
      expect(set.body).toEqual({
        owners: [{ id: PEOPLE.patti, name: 'Patti Fernandez' }],
        members: [{ id: PEOPLE.isaiah, name: 'Isaiah Langer' }],
      });
      expect((await suite.app.call('GET', path, { token: suite.patti })).body).toEqual(set.body);
      const owners = await suite.app.call<PermanentMember[]>('GET', `${path}/owners`, { token: suite.patti });
      expect(owners.body).toEqual([{ id: PEOPLE.patti, name: 'Patti Fernandez' }]);
    });

    test('set by role replaces only that role', async () => {
      const res = await suite.app.call<PermanentMember[]>('PUT', `${path}/members`, {
        token: suite.patti,
        body: [{ id: 'alexw@example.com' }],
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ id: PEOPLE.alex, name: 'Alex Wilber' }]);
      const all = await suite.app.call<{ owners: PermanentMember[]; members: PermanentMember[] }>(
        'GET',
        path,
        {
          token: suite.patti,
        },
      );
      expect(all.body.members).toEqual([{ id: PEOPLE.alex, name: 'Alex Wilber' }]);
      expect(all.body.owners).toEqual([{ id: PEOPLE.patti, name: 'Patti Fernandez' }]);
      const template = await suite.app.call<CatalogTemplate>('GET', '/api/v1.0/catalog/templates/project', {
        token: suite.patti,
      });
      expect(template.body.templateConfiguration.permanentMembership.members).toEqual(all.body.members);
    });

    test('many concurrent updates of owners and of members all succeed and keep both roles', async () => {
      const path2 = '/api/v1.0/catalog/templates/onboarding-buddy/permanent_membership';
      await suite.app.call('PUT', path2, { token: suite.patti, body: { owners: [], members: [] } });
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          i % 2 === 0
            ? suite.app.call('PUT', `${path2}/owners`, { token: suite.patti, body: [{ id: PEOPLE.lynne }] })
            : suite.app.call('PUT', `${path2}/members`, {
                token: suite.patti,
                body: [{ id: PEOPLE.isaiah }],
              }),
        ),
      );
      expect(results.map((r) => r.status).filter((status) => status !== 200)).toEqual([]);
      const all = await suite.app.call<{ owners: PermanentMember[]; members: PermanentMember[] }>(
        'GET',
        path2,
        {
          token: suite.patti,
        },
      );
      expect(all.body.owners.map((m) => m.id)).toEqual([PEOPLE.lynne]);
      expect(all.body.members.map((m) => m.id)).toEqual([PEOPLE.isaiah]);
    });

    test('a role other than owners or members is 400', async () => {
      for (const method of ['GET', 'PUT']) {
        const res = await suite.app.call(method, `${path}/guests`, {
          token: suite.patti,
          body: method === 'PUT' ? [] : undefined,
        });
        expect(res.status).toBe(400);
      }
    });

    test('an unknown user is 400 and the membership is unchanged', async () => {
      const before = await suite.app.call('GET', path, { token: suite.patti });
      const res = await suite.app.call('PUT', `${path}/owners`, {
        token: suite.patti,
        body: [{ id: 'nobody@nowhere.test' }],
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: { details: [{ code: 'unknownUser', target: '[0].id' }] } });
      expect((await suite.app.call('GET', path, { token: suite.patti })).body).toEqual(before.body);
    });

    test('an unknown template is 404 for get and set', async () => {
      expect(
        (
          await suite.app.call('GET', '/api/v1.0/catalog/templates/nope/permanent_membership', {
            token: suite.patti,
          })
        ).status,
      ).toBe(404);
      const res = await suite.app.call(
        'PUT',
        '/api/v1.0/catalog/templates/nope/permanent_membership/owners',
        {
          token: suite.patti,
          body: [],
        },
      );
      expect(res.status).toBe(404);
    });

    test('the permanent membership operations need a catalog role', async () => {
      expect((await suite.app.call('GET', path, { token: suite.alex })).status).toBe(403);
      expect(
        (await suite.app.call('PUT', path, { token: suite.alex, body: { owners: [], members: [] } })).status,
      ).toBe(403);
    });
  });
});
