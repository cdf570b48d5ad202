import { NotFound } from '../../domain/errors';
import type { TeamMember } from '../../contract';
import type { PlannedMember } from '../port';
import { PlatformError } from '../port';
import type { GraphClient } from './client';
import { segment } from './paths';
import { type GraphMember, toMember } from './mapping';
import type { MemberAdd, MembersAdd, MembersAddResult, MemberUpdate } from './payloads';
import type { Binds } from './binds';

export const MEMBER_TYPE = '#microsoft.graph.aadUserConversationMember';

/** Members one `conversationMember: add` call takes at most (`api/conversationmembers-add.md`). */
export const BULK_ADD_LIMIT = 200;

/**
 * Makes a team have `members` with their roles in as few calls as Graph allows: one read of the
 * members, one `POST /teams/{id}/members/add` per 200 people missing, and a PATCH only for a
 * present member whose role differs. Graph counts member additions against a small per-team budget
 * (4 a minute, `includes/throttling-teams.md`), which is why nobody present is added again.
 */
export async function addMembersInBulk(
  client: GraphClient,
  binds: Binds,
  teamId: string,
  members: readonly PlannedMember[],
): Promise<{ added: number; changed: number }> {
  const team = `/teams/${segment(teamId)}`;
  const present = new Map(
    (await client.list<GraphMember>(`${team}/members`)).map((member) => [member.userId ?? '', member]),
  );
  const wanted = new Map<string, PlannedMember['role']>();
  for (const member of members) {
    // Someone planned twice keeps the stronger role.
    if (wanted.get(member.id) !== 'owner') wanted.set(member.id, member.role);
  }
  const missing: MemberAdd[] = [];
  const changes: Array<{ member: GraphMember; roles: string[] }> = [];
  for (const [userId, role] of wanted) {
    const roles = role === 'owner' ? ['owner'] : [];
    const member = present.get(userId);
    if (!member) {
      missing.push({ '@odata.type': MEMBER_TYPE, roles, 'user@odata.bind': binds.user(userId) });
    } else if ((member.roles ?? []).some((r) => r.toLowerCase() === 'owner') !== (role === 'owner')) {
      changes.push({ member, roles });
    }
  }
  for (let i = 0; i < missing.length; i += BULK_ADD_LIMIT) {
    const response = await client.send<MembersAddResult>({
      method: 'POST',
      path: `${team}/members/add`,
      body: { values: missing.slice(i, i + BULK_ADD_LIMIT) } satisfies MembersAdd,
    });
    const refused = (response.body?.value ?? []).filter((result) => result.error);
    if (refused.length > 0) {
      const first = refused[0]!;
      throw new PlatformError(
        `Microsoft Graph did not add ${refused.length} member(s) to team ${teamId}; the first, ${first.userId ?? 'unknown'}: ${first.error?.message ?? first.error?.code ?? 'no reason given'}`,
        400,
        false,
      );
    }
  }
  for (const { member, roles } of changes) {
    await client.send({
      method: 'PATCH',
      path: `${team}/members/${segment(member.id)}`,
      body: { '@odata.type': MEMBER_TYPE, roles } satisfies MemberUpdate,
    });
  }
  return { added: missing.length, changed: changes.length };
}

/**
 * Removes `userId` from a team: Graph deletes a conversationMember by its membership id
 * (`DELETE /teams/{id}/members/{membership-id}`, 204, `api/conversationmember-delete.md`), so the
 * members are read first to find it. False when the person is not in the team, or left between
 * the read and the delete (404).
 */
export async function removeMemberByUser(
  client: GraphClient,
  teamId: string,
  userId: string,
): Promise<boolean> {
  const team = `/teams/${segment(teamId)}`;
  const member = (await client.list<GraphMember>(`${team}/members`)).find((m) => m.userId === userId);
  if (!member) return false;
  try {
    await client.send({ method: 'DELETE', path: `${team}/members/${segment(member.id)}` });
    return true;
  } catch (error) {
    if (error instanceof NotFound) return false;
    throw error;
  }
}

/**
 * Adds a member with `role`. Someone already there is not an error: Graph answers 409, and the
 * existing membership gets the requested role instead.
 */
export async function addMemberWithRole(
  client: GraphClient,
  binds: Binds,
  teamId: string,
  userId: string,
  role: 'owner' | 'member',
): Promise<TeamMember> {
  const roles = role === 'owner' ? ['owner'] : [];
  let member: GraphMember | undefined;
  try {
    const response = await client.send<GraphMember>({
      method: 'POST',
      path: `/teams/${segment(teamId)}/members`,
      body: {
        '@odata.type': MEMBER_TYPE,
        roles,
        'user@odata.bind': binds.user(userId),
      } satisfies MemberAdd,
    });
    member = response.body;
  } catch (error) {
    if (!(error instanceof PlatformError && error.status === 409)) throw error;
    member = (await client.list<GraphMember>(`/teams/${segment(teamId)}/members`)).find(
      (m) => m.userId === userId,
    );
    if (!member) throw error;
  }
  if (!member) throw new PlatformError('Microsoft Graph added the member but returned nobody', 502, false);
  if (toMember(member).roles.includes('owner') === (role === 'owner')) return toMember(member);
  const updated = await client.send<GraphMember>({
    method: 'PATCH',
    path: `/teams/${segment(teamId)}/members/${segment(member.id)}`,
    body: { '@odata.type': MEMBER_TYPE, roles } satisfies MemberUpdate,
  });
  return toMember(updated.body ?? { ...member, roles });
}
