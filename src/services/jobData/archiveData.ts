import { z } from 'zod';

const Person = z.looseObject({ id: z.string(), displayName: z.string() });

/**
 * The data of an archive or unarchive job (`teams/teamArchiveJob.ts`): the teams feature queues
 * them for people, lifecycle for its policies.
 */
export const ArchiveData = z.looseObject({
  action: z.enum(['archive', 'unarchive']),
  team: Person,
  requester: Person,
  shouldSetSpoSiteReadOnlyForMembers: z.boolean(),
});
export type ArchiveData = z.output<typeof ArchiveData>;
