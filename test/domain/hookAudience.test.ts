import { deliveryRefusal, namedPeople, reaches } from '../../src/domain/hookAudience';

const ALEX = 'alex-id';
const ADELE = 'adele-id';
const request = {
  requester: { id: ALEX, displayName: 'Alex' },
  template: { id: 'client-engagement', approvers: [{ id: 'someone-listed' }] },
  approval: { id: 'a1', stage: { approvers: [{ id: ADELE, name: 'Adele' }] } },
};

describe('which hooks an event reaches', () => {
  test('a person’s hook: the events naming them as requester, approver, owner or decider', () => {
    expect([...namedPeople(request)].sort()).toEqual([ADELE, ALEX].sort());
    expect(namedPeople({ team: { id: 't' }, lifecycle: { ownerIds: ['o1'] } })).toEqual(new Set(['o1']));
    expect(namedPeople({ owners: [{ id: 'o2' }], decidedBy: { id: 'd' } })).toEqual(new Set(['o2', 'd']));
    const mine = (createdBy: string) => ({ scope: 'mine' as const, templateId: null, createdBy });
    expect(reaches(mine(ALEX), request)).toBe(true);
    expect(reaches(mine(ADELE), request)).toBe(true);
    // Listed in the template, not asked for this request: not theirs.
    expect(reaches(mine('someone-listed'), request)).toBe(false);
    expect(reaches(mine(ALEX), { team: { id: 't' } })).toBe(false);
  });

  test('a template’s hook: its template’s events; the tenant’s: every one', () => {
    const template = (templateId: string) => ({ scope: 'template' as const, templateId, createdBy: 'm' });
    expect(reaches(template('client-engagement'), request)).toBe(true);
    expect(reaches(template('project'), request)).toBe(false);
    expect(reaches(template('project'), { team: { id: 't' } })).toBe(false);
    expect(reaches({ scope: 'tenant', templateId: null, createdBy: 'm' }, { team: { id: 't' } })).toBe(true);
  });

  test('a delivery needs its maker still in the directory, and still in a hook role for more than their own', () => {
    const hook = (scope: 'mine' | 'template' | 'tenant', creatorKind: 'user' | 'app' | null = 'user') => ({
      scope,
      templateId: scope === 'template' ? 'project' : null,
      createdBy: 'm',
      creatorKind,
    });
    const gone = { person: false, roles: undefined };
    const plain = { person: true, roles: [] };
    const manager = { person: true, roles: ['INTEGRATION_MANAGER' as const] };
    const unknownRoles = { person: true, roles: undefined };
    expect(deliveryRefusal(hook('mine'), plain)).toBeUndefined();
    expect(deliveryRefusal(hook('mine'), gone)).toMatch(/no longer a person/);
    expect(deliveryRefusal(hook('mine', null), gone)).toMatch(/no longer a person/);
    for (const scope of ['template', 'tenant'] as const) {
      expect(deliveryRefusal(hook(scope), manager)).toBeUndefined();
      expect(deliveryRefusal(hook(scope), { person: true, roles: ['GLOBAL_ADMIN'] })).toBeUndefined();
      expect(deliveryRefusal(hook(scope), { person: true, roles: ['CATALOG_MANAGER'] })).toMatch(
        /no longer holds/,
      );
      expect(deliveryRefusal(hook(scope), gone)).toMatch(/no longer a person/);
      // A directory that records no roles (Entra ID): the person is checked, the role left to tokens.
      expect(deliveryRefusal(hook(scope), unknownRoles)).toBeUndefined();
      // An application's hook: its token decides, as in the API.
      expect(deliveryRefusal(hook(scope, 'app'), gone)).toBeUndefined();
      // A maker of unknown kind the directory does not have: taken for an application.
      expect(deliveryRefusal(hook(scope, null), gone)).toBeUndefined();
      expect(deliveryRefusal(hook(scope, null), plain)).toMatch(/no longer holds/);
    }
  });
});
