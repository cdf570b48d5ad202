import { namedPeople, reaches } from '../../src/domain/hookAudience';

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
});
