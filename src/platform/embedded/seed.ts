import { seedUsers } from '../../store/seed/directory';
import type { TeamChannelTabPayload } from '../../contract';
import type { EmbeddedTeams } from './teams';

/** The id of the team the demo "Onboarding cohort" template clones (see the seed templates). */
export const SEED_TEMPLATE_TEAM_ID = 'seed-team-onboarding-template';

const SEED_PROVISIONING_KEY = 'seed:onboarding-template-team';

/** People of the seed directory in the template team: the HR owners and a few members. */
const MEMBERS: ReadonlyArray<{ displayName: string; role: 'owner' | 'member' }> = [
  { displayName: 'Katharina Schäfer', role: 'owner' },
  { displayName: 'Ana Beatriz Gonçalves', role: 'owner' },
  { displayName: 'Marcus Johnson', role: 'member' },
  { displayName: 'Patti Fernandez', role: 'member' },
];

const CHANNELS: ReadonlyArray<{ displayName: string; description: string; tabs: TeamChannelTabPayload[] }> = [
  {
    displayName: 'Welcome',
    description: 'Start here: your first week, who is who, and where to ask.',
    tabs: [webTab('Onboarding checklist', 'onboarding-checklist')],
  },
  {
    displayName: 'Resources',
    description: 'Handbooks, policies and the tools every newcomer needs.',
    tabs: [webTab('Employee handbook', 'employee-handbook')],
  },
];

function webTab(displayName: string, path: string): TeamChannelTabPayload {
  return {
    displayName,
    teamsAppId: 'com.microsoft.teamspace.tab.web',
    configuration: {
      entityId: path,
      contentUrl: `https://example.com/${path}`,
      websiteUrl: `https://example.com/${path}`,
    },
  };
}

function seedUserId(displayName: string): string {
  const user = seedUsers.find((u) => u.displayName === displayName);
  if (!user) throw new Error(`The seed directory has no ${displayName}.`);
  return user.id;
}

/**
 * Creates the team the demo clone template copies, with its channels, tabs and members; each
 * part is created only when missing, so running it again (or after a crash half-way) changes
 * nothing. Bypasses the latency and fault knobs. Returns false when the team was complete already.
 */
export async function seedEmbeddedTeams(teams: EmbeddedTeams): Promise<boolean> {
  const { teamRecords, channelRecords } = teams;
  let changed = false;
  const [firstOwner] = MEMBERS;
  if (!(await teamRecords.getTeam(SEED_TEMPLATE_TEAM_ID))) {
    await teamRecords.createTeam(
      {
        displayName: 'Onboarding template team',
        description: 'The model team for onboarding cohorts: the Onboarding cohort template clones it.',
        visibility: 'private',
        mailNickname: 'onboardingtemplateteam',
        settings: { funSettings: { giphyContentRating: 'strict' } },
        ownerId: seedUserId(firstOwner?.displayName ?? ''),
        provisioningKey: SEED_PROVISIONING_KEY,
      },
      { id: SEED_TEMPLATE_TEAM_ID },
    );
    changed = true;
  }

  const members = await teamRecords.listMembers(SEED_TEMPLATE_TEAM_ID);
  for (const member of MEMBERS) {
    const userId = seedUserId(member.displayName);
    if (members.some((m) => m.userId === userId)) continue;
    await teamRecords.addMember(SEED_TEMPLATE_TEAM_ID, userId, member.role);
    changed = true;
  }

  const channels = await channelRecords.listChannels(SEED_TEMPLATE_TEAM_ID);
  for (const spec of CHANNELS) {
    let channel = channels.find((c) => c.displayName === spec.displayName);
    if (!channel) {
      channel = await channelRecords.createChannel(SEED_TEMPLATE_TEAM_ID, {
        displayName: spec.displayName,
        description: spec.description,
        membershipType: 'standard',
      });
      changed = true;
    }
    const tabs = await channelRecords.listTabs(SEED_TEMPLATE_TEAM_ID, channel.id);
    for (const tab of spec.tabs) {
      if (tabs.some((t) => t.displayName === tab.displayName)) continue;
      await channelRecords.createTab(SEED_TEMPLATE_TEAM_ID, channel.id, tab);
      changed = true;
    }
  }

  const general = await channelRecords.primaryChannel(SEED_TEMPLATE_TEAM_ID);
  if ((await channelRecords.listMessages(SEED_TEMPLATE_TEAM_ID, general.id)).length === 0) {
    await channelRecords.postMessage(
      SEED_TEMPLATE_TEAM_ID,
      general.id,
      '<p>This is the <b>onboarding template team</b>.</p><p>Teams requested from the Onboarding cohort template start as a copy of it.</p>',
    );
    changed = true;
  }
  return changed;
}
