import type { DelegatedGrant } from '../../domain/delegation';
import type { Kysely } from 'kysely';
import { NotFound } from '../../domain/errors';
import { sleep } from '../../lib/sleep';
import type {
  Team,
  TeamChannel,
  TeamChannelPayload,
  TeamChannelTab,
  TeamChannelTabPayload,
  TeamMember,
  TeamChange,
} from '../../contract';
import type { TeamInventoryItem } from '../../domain/reports/model';
import type { Database } from '../../store/schema';
import { escapeMarkup } from '../../lib/markup';
import {
  type CloneTeamSpec,
  type NewTeamSpec,
  type PlannedMember,
  PlatformError,
  type TeamsPlatform,
  type WelcomeOutcome,
} from '../port';
import { ChannelRecords, type StoredMessage } from './channelRecords';
import { type ChannelItem, EmbeddedChannelFiles } from './files';
import { monotonicStamp } from './teamCreation';
import { TeamRecords, type TeamState, type TeamSummary } from './teamRecords';
import { EmbeddedWorkspace } from './teamTools';
import type { WorkspaceView } from './workspaceView';

/** The Nth platform call (1-based, per adapter) fails with `status`. */
export interface EmbeddedFault {
  call: number;
  status: 429 | 500 | 503;
}

/** How the embedded teams behave: where the viewer lives, and the knobs tests turn. */
export interface EmbeddedTeamsOptions {
  /** The deployment's public base URL; teams' webUrl points at the viewer under it. */
  publicUrl: () => string;
  /** Delay before every call, to make a slow platform. */
  latencyMs: number;
  faults: ReadonlyArray<EmbeddedFault>;
  now?: () => Date;
}

/** Everything the read-only viewer shows of one team. */
export interface TeamView extends TeamState {
  members: TeamMember[];
  channels: Array<{ channel: TeamChannel; tabs: TeamChannelTab[]; items?: ChannelItem[] }>;
  /** The General channel's messages (the welcome message), oldest first. */
  generalMessages: StoredMessage[];
  /** The team's plan, tags and installed apps. */
  workspace: WorkspaceView;
}

/** What the read-only viewer needs of the embedded tenant. */
export interface TeamViewSource {
  listTeamSummaries(): Promise<TeamSummary[]>;
  viewTeam(teamId: string): Promise<TeamView | undefined>;
}

/** How long Graph typically asks a throttled caller to wait. */
const THROTTLED_RETRY_AFTER_MS = 1000;

/**
 * The embedded platform's teams: a simulated tenant in Steward's database, shaped like Microsoft
 * Graph's answers. Every port call first waits `latencyMs` and may fail as `faults` say, so the
 * provisioning engine's retries can be exercised without Graph.
 */
export class EmbeddedTeams implements TeamsPlatform, TeamViewSource {
  /** The tenant's teams and members without latency or faults: for seeding and the viewer. */
  readonly teamRecords: TeamRecords;
  /** The tenant's channels, tabs and messages without latency or faults. */
  readonly channelRecords: ChannelRecords;
  /** Channels' folders and starter files. */
  readonly files: EmbeddedChannelFiles;
  /** The team's plan, tags and apps (through the same latency and faults as every call). */
  readonly workspace: EmbeddedWorkspace;
  private calls = 0;

  constructor(
    db: Kysely<Database>,
    private readonly options: EmbeddedTeamsOptions,
  ) {
    const shared = { publicUrl: options.publicUrl, stamp: monotonicStamp(options.now) };
    this.teamRecords = new TeamRecords(db, shared);
    this.channelRecords = new ChannelRecords(db, shared);
    this.files = new EmbeddedChannelFiles(db, shared.stamp);
    this.workspace = new EmbeddedWorkspace(db, shared, (operation) => this.call(operation));
  }

  /** Creates a team with its General channel and first owner; idempotent by provisioning key. */
  createTeam(spec: NewTeamSpec): Promise<Team & { found?: boolean }> {
    return this.call(() => this.teamRecords.createTeam(spec));
  }

  /** Clones a team with the chosen parts; idempotent by provisioning key. */
  cloneTeam(spec: CloneTeamSpec): Promise<Team> {
    return this.call(() => this.teamRecords.cloneTeam(spec));
  }

  /** The team a job created earlier, if any. */
  findTeamByProvisioningKey(key: string): Promise<Team | undefined> {
    return this.call(() => this.teamRecords.findTeamByProvisioningKey(key));
  }

  /** The team, or undefined. */
  getTeam(teamId: string): Promise<Team | undefined> {
    return this.call(() => this.teamRecords.getTeam(teamId));
  }

  /** Changes the given fields; settings merge key by key. */
  updateTeam(teamId: string, update: TeamChange): Promise<void> {
    return this.call(() => this.teamRecords.updateTeam(teamId, update));
  }

  /** The label, as an owner whose grant is still valid (see TeamRecords.applyLabel). */
  applyLabel(teamId: string, labelId: string, grant: DelegatedGrant): Promise<void> {
    return this.call(() =>
      this.teamRecords.applyLabel(teamId, labelId, grant, this.options.now?.() ?? new Date()),
    );
  }

  /** Deletes the team and everything in it. */
  deleteTeam(teamId: string): Promise<void> {
    return this.call(() => this.teamRecords.deleteTeam(teamId));
  }

  /** Archives the team (its site read-only for members when asked). */
  archiveTeam(teamId: string, setSiteReadOnlyForMembers: boolean): Promise<void> {
    return this.call(() => this.teamRecords.archiveTeam(teamId, setSiteReadOnlyForMembers));
  }

  /** Unarchives the team. */
  unarchiveTeam(teamId: string): Promise<void> {
    return this.call(() => this.teamRecords.unarchiveTeam(teamId));
  }

  /** The team's members. */
  listMembers(teamId: string): Promise<TeamMember[]> {
    return this.call(() => this.teamRecords.listMembers(teamId));
  }

  /** Adds a member, or changes an existing member's role. */
  addMember(teamId: string, userId: string, role: 'owner' | 'member'): Promise<TeamMember> {
    return this.call(() => this.teamRecords.addMember(teamId, userId, role));
  }

  /** Removes someone from the team; false when they were not in it. */
  removeMember(teamId: string, userId: string): Promise<boolean> {
    return this.call(() => this.teamRecords.removeMember(teamId, userId));
  }

  /** The team's channels, General first. */
  listChannels(teamId: string): Promise<TeamChannel[]> {
    return this.call(() => this.channelRecords.listChannels(teamId));
  }

  /** The team's General channel. */
  primaryChannel(teamId: string): Promise<TeamChannel> {
    return this.call(() => this.channelRecords.primaryChannel(teamId));
  }

  /** Creates a channel; the embedded tenant keeps no channel membership, so `ownerId` is not recorded. */
  createChannel(teamId: string, channel: TeamChannelPayload, _ownerId: string): Promise<TeamChannel> {
    return this.call(() => this.channelRecords.createChannel(teamId, channel));
  }

  /** The channel's tabs. */
  listTabs(teamId: string, channelId: string): Promise<TeamChannelTab[]> {
    return this.call(() => this.channelRecords.listTabs(teamId, channelId));
  }

  /** Adds a tab to the channel. */
  createTab(teamId: string, channelId: string, tab: TeamChannelTabPayload): Promise<TeamChannelTab> {
    return this.call(() => this.channelRecords.createTab(teamId, channelId, tab));
  }

  /** Adds who is missing and changes roles that differ, one person at a time (no bulk call to save here). */
  addMembers(teamId: string, members: readonly PlannedMember[]): Promise<{ added: number; changed: number }> {
    return this.call(async () => {
      const present = new Map((await this.teamRecords.listMembers(teamId)).map((m) => [m.userId, m]));
      let added = 0;
      let changed = 0;
      for (const member of members) {
        const existing = present.get(member.id);
        if (existing && existing.roles.includes('owner') === (member.role === 'owner')) continue;
        await this.teamRecords.addMember(teamId, member.id, member.role);
        if (existing) changed++;
        else added++;
      }
      return { added, changed };
    });
  }

  /** The simulated tenant makes a team with its requester alone; `addMembers` adds everyone else. */
  membersAtCreation(): PlannedMember[] {
    return [];
  }

  /** Posts a message in the channel (not a port call: Graph posts only as the bot). */
  postMessage(teamId: string, channelId: string, html: string): Promise<void> {
    return this.call(() => this.channelRecords.postMessage(teamId, channelId, html));
  }

  /** Posts the welcome message in General: the simulated tenant needs no bot to show it. */
  welcome(teamId: string, text: string): Promise<WelcomeOutcome> {
    return this.call(async () => {
      const primary = await this.channelRecords.primaryChannel(teamId);
      await this.channelRecords.postMessage(teamId, primary.id, `<p>${escapeMarkup(text)}</p>`);
      return { posted: 'Posted the welcome message in General.' };
    });
  }

  /** Every team with its archive flag and owner count, by name (one query). */
  listTeamInventory(): Promise<TeamInventoryItem[]> {
    return this.call(() => this.teamRecords.listTeamInventory());
  }

  /** Every team, by name (not a port call: no latency, no faults). */
  listTeamSummaries(): Promise<TeamSummary[]> {
    return this.teamRecords.listTeamSummaries();
  }

  /** Everything the viewer shows of a team, or undefined (not a port call: no latency, no faults). */
  async viewTeam(teamId: string): Promise<TeamView | undefined> {
    const state = await this.teamRecords.getTeamState(teamId);
    if (!state) return undefined;
    try {
      const channels = await this.channelRecords.listChannels(teamId);
      const general = channels[0];
      const items = await this.files.itemsOf(teamId);
      return {
        ...state,
        members: await this.teamRecords.listMembers(teamId),
        channels: await Promise.all(
          channels.map(async (channel) => ({
            channel,
            tabs: await this.channelRecords.listTabs(teamId, channel.id),
            items: items.get(channel.id) ?? [],
          })),
        ),
        generalMessages: general ? await this.channelRecords.listMessages(teamId, general.id) : [],
        workspace: await this.workspace.view(teamId),
      };
    } catch (error) {
      // Deleted while we read it: the page shows "not found" as if we had come a moment later.
      if (error instanceof NotFound) return undefined;
      throw error;
    }
  }

  /**
   * Counts the call when it is made (so concurrent calls are numbered in the order they were
   * issued), waits the latency, then fails it if a fault names its number.
   */
  private async call<T>(operation: () => Promise<T>): Promise<T> {
    this.calls += 1;
    const number = this.calls;
    if (this.options.latencyMs > 0) await sleep(this.options.latencyMs);
    const fault = this.options.faults.find((f) => f.call === number);
    if (fault) {
      throw new PlatformError(
        `The embedded platform failed call ${number} with ${fault.status}, as configured.`,
        fault.status,
        fault.status !== 500,
        fault.status === 429 ? THROTTLED_RETRY_AFTER_MS : undefined,
      );
    }
    return operation();
  }
}
