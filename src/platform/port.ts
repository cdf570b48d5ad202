import type { DelegatedGrant, SignedInPerson } from '../domain/delegation';
import type { DirectoryReader } from '../domain/directory';
import type { LifecycleFacts } from '../domain/lifecycle/decide';
import type { OperationState } from '../domain/jobs';
import type { TeamInventoryItem } from '../domain/reports/model';
import type {
  JobWaitReason,
  Team,
  TeamChannel,
  TeamChannelPayload,
  TeamChannelTab,
  TeamChannelTabPayload,
  TeamMember,
  TeamSettings,
  TeamChange,
} from '../contract';
import type { TeamWorkspace } from './teamTools';

/** What a new team is made of. */
export interface NewTeamSpec {
  displayName: string;
  description: string;
  visibility: 'public' | 'private';
  /** The mail alias of the team's group (letters and digits only). */
  mailNickname: string;
  settings: TeamSettings;
  /** The first owner: Graph needs one when an app creates a team. */
  ownerId: string;
  /**
   * Everyone the team should have, owners included. A platform may put some of them in the
   * creation request (Graph takes up to 20 with the group); `addMembers` adds the rest.
   */
  members?: readonly PlannedMember[];
  /**
   * A key unique to the job that creates this team, recorded with it, so that a job resumed after
   * a crash finds the team it created (`findTeamByProvisioningKey`) instead of creating another.
   */
  provisioningKey: string;
}

/** A person a team should have, with their role. */
export interface PlannedMember {
  id: string;
  role: 'owner' | 'member';
}

/**
 * A long operation of the platform (Graph creating, cloning, archiving or unarchiving a team, or
 * replicating a new one) that a job's step waits on. Between two looks at the operation the
 * platform calls `wait`: a job parks there (the call rejects with the worker's signal, the worker's
 * slot is freed) and its step runs again after `afterMs`, on any worker, with `state`, so the
 * platform looks at the same operation again instead of starting another. Without a checkpoint the
 * platform sleeps in-process between looks.
 */
export interface OperationCheckpoint {
  /** Where an earlier attempt of the step left the operation, if it got that far. */
  readonly state?: OperationState;
  /**
   * Lets `afterMs` pass before the next look; `state` is what the next look needs. `budgetKey`
   * names the rate-budget bucket (`graphBudget.ts`) the call after the wait spends, when it is
   * known: the job is then taken up when that bucket has a turn for it, not merely when the time
   * has passed (a job back from a wait only to wait again for its turn holds a worker's place).
   */
  wait(wait: {
    for: JobWaitReason;
    afterMs: number;
    state: OperationState;
    budgetKey?: string;
  }): Promise<void>;
}

/** What became of the welcome message: posted (with a line for the job log) or skipped, and why. */
export type WelcomeOutcome = { posted: string } | { skipped: string };

/** A team made by copying another one. */
export interface CloneTeamSpec extends Omit<NewTeamSpec, 'settings' | 'members'> {
  sourceTeamId: string;
  parts: { apps: boolean; tabs: boolean; settings: boolean; channels: boolean; members: boolean };
}

export { PlatformBusy, PlatformError } from '../domain/errors';
export type { OperationState } from '../domain/jobs';

/** Where a channel keeps its files: a folder of a document library (a SharePoint drive). */
export interface ChannelFolder {
  driveId: string;
  /** The folder's item id in that drive. */
  itemId: string;
}

/**
 * A channel's files folder and what a template puts in it (docs/guides/templates.md). Private and shared channels
 * get a SharePoint site of their own, made some time after the channel: `filesFolder` waits for it
 * through the job's `operation` (the job parks, its worker slot freed), never in the worker. A
 * caller reads what is there (`existingItems`) and writes only what is missing: a write is never
 * how Steward learns that something exists, and nothing already there is overwritten.
 */
export interface ChannelFiles {
  /** The channel's files folder, once it exists (waited for through `operation`). */
  filesFolder(teamId: string, channelId: string, operation?: OperationCheckpoint): Promise<ChannelFolder>;
  /**
   * Which of `paths` (folders and files under the channel's folder, `Contracts/Signed`) are there,
   * lower-cased: names are compared regardless of case, as SharePoint does. Each folder on the way
   * to a path is read once; nothing under a folder that is not there.
   */
  existingItems(folder: ChannelFolder, paths: readonly string[]): Promise<Set<string>>;
  /**
   * Makes the folder at `path` (`Contracts/Signed`, under the channel's folder; its parent exists);
   * false when a folder of that name was there already.
   */
  createFolder(folder: ChannelFolder, path: string): Promise<boolean>;
  /**
   * Writes a new text file at `path`, where `existingItems` found none; true only when the platform
   * answered that it made it, false when one of that name turned up meanwhile.
   */
  createFile(folder: ChannelFolder, path: string, content: string): Promise<boolean>;
}

/** Teams, channels, tabs and members, whichever platform holds them. Unknown ids throw NotFound. */
export interface TeamsPlatform {
  /** The plan, tags and apps a template builds in a team (`teamTools.ts`). */
  readonly workspace: TeamWorkspace;
  /**
   * Creates a team and resolves once it exists (Graph's asynchronous operation is awaited through
   * `operation`); a team an earlier attempt made with the same provisioning key is found instead
   * (`found`), so the job need not look for it first.
   */
  createTeam(spec: NewTeamSpec, operation?: OperationCheckpoint): Promise<Team & { found?: boolean }>;
  /** Clones `spec.sourceTeamId` with the chosen parts and resolves once the copy exists. */
  cloneTeam(spec: CloneTeamSpec, operation?: OperationCheckpoint): Promise<Team>;
  /** The team a job created earlier, if it got that far. */
  findTeamByProvisioningKey(key: string): Promise<Team | undefined>;
  getTeam(teamId: string): Promise<Team | undefined>;
  updateTeam(teamId: string, update: TeamChange): Promise<void>;
  deleteTeam(teamId: string): Promise<void>;
  archiveTeam(
    teamId: string,
    setSiteReadOnlyForMembers: boolean,
    operation?: OperationCheckpoint,
  ): Promise<void>;
  unarchiveTeam(teamId: string, operation?: OperationCheckpoint): Promise<void>;
  listMembers(teamId: string): Promise<TeamMember[]>;
  /** Adds a member, or changes an existing member's role; adding someone twice is not an error. */
  addMember(teamId: string, userId: string, role: 'owner' | 'member'): Promise<TeamMember>;
  /**
   * Makes the team have `members` with their roles, adding only who is missing (in bulk where the
   * platform can) and changing only roles that differ; returns how many were added and changed.
   */
  addMembers(teamId: string, members: readonly PlannedMember[]): Promise<{ added: number; changed: number }>;
  /**
   * Those of a new team's people that `createTeam` puts in with its creation request, with their
   * roles (Graph: the group's first 20 owners and members); none where the platform adds everyone
   * afterwards. A pure answer, the same for every run of a job: when it covers everyone planned,
   * the job has nobody left to add and spares reading the members.
   */
  membersAtCreation(spec: Pick<NewTeamSpec, 'ownerId' | 'members'>): PlannedMember[];
  /**
   * Removes `userId` (a member, owner or guest) from the team; resolves to false when they were not
   * in it, so a job that runs again after a crash removes nobody twice and fails on nobody gone.
   */
  removeMember(teamId: string, userId: string): Promise<boolean>;
  listChannels(teamId: string): Promise<TeamChannel[]>;
  primaryChannel(teamId: string): Promise<TeamChannel>;
  /**
   * Creates a channel; `ownerId` becomes the owner of a private or shared one. A platform that
   * creates shared channels asynchronously (Graph) waits for it through `operation`.
   */
  createChannel(
    teamId: string,
    channel: TeamChannelPayload,
    ownerId: string,
    operation?: OperationCheckpoint,
  ): Promise<TeamChannel>;
  /** Channels' files folders, and the folders and starter files a template puts in them. */
  readonly files: ChannelFiles;
  listTabs(teamId: string, channelId: string): Promise<TeamChannelTab[]>;
  /**
   * Pins a tab. The answer carries the app's details (name, distribution) unless `withApp` is
   * false: then only its id, and the platform may spare the read that fetches them.
   */
  createTab(
    teamId: string,
    channelId: string,
    tab: TeamChannelTabPayload,
    options?: { withApp?: boolean },
  ): Promise<TeamChannelTab>;
  /**
   * Shows the welcome message (plain text) in the team's General channel, as Steward's bot where the
   * platform needs a bot for it. A welcome that cannot be delivered is skipped with its reason,
   * never an error: the team exists and is usable without it. `generalChannelId`, when the caller
   * knows it, spares reading it again.
   */
  welcome(teamId: string, text: string, generalChannelId?: string): Promise<WelcomeOutcome>;
  /**
   * Puts a sensitivity label on the team's group with a person's delegated authority (`grant`),
   * never Steward's own: Graph refuses it to application tokens. Rejects with a PlatformError
   * (401, 403) when the platform refuses that person.
   */
  applyLabel(teamId: string, labelId: string, grant: DelegatedGrant): Promise<void>;
  /**
   * Every team of the tenant (not only those Steward provisioned) with its archive flag and owner
   * count, by name: what the lifecycle reports (archived, orphaned teams) are computed from.
   */
  listTeamInventory(): Promise<TeamInventoryItem[]>;
}

export type { TeamInventoryItem };
export type { LifecycleFacts };

/** One page of the tenant's teams as lifecycle governance reads them; `next` continues after it. */
export interface LifecyclePage {
  teams: LifecycleFacts[];
  next?: string;
}

/** A team's last activity as the platform's activity report gives it. */
export interface TeamActivity {
  teamId: string;
  /** `YYYY-MM-DD`; null when the report saw no activity in its period. */
  lastActivityDate: string | null;
}

/**
 * What lifecycle governance reads of the tenant: every team (not only those Steward made) page by
 * page, so a tenant of 100 000 teams is never held in memory, with its creation date, archive flag,
 * owners and guests; and each team's last activity.
 */
export interface LifecycleSource {
  /** The page after `cursor` (the first page without one), of at most `size` teams. */
  listTeams(cursor: string | undefined, size: number): Promise<LifecyclePage>;
  /** One team's facts, or undefined when the platform does not know it. */
  getTeam(teamId: string): Promise<LifecycleFacts | undefined>;
  /** Every team's last activity (Graph's Teams activity report), streamed. */
  activity(): AsyncIterable<TeamActivity>;
}

/**
 * The collaboration platform Steward governs: Microsoft Graph in production, the embedded
 * simulated tenant otherwise. Services depend on this port, never on an adapter.
 */
export interface Platform {
  readonly kind: 'embedded' | 'graph';
  readonly directory: DirectoryReader;
  readonly teams: TeamsPlatform;
  readonly lifecycle: LifecycleSource;
  /** Exchanges a person's sign-in for a token that acts as them (on Graph, the on-behalf-of flow). */
  readonly delegation: DelegatedAccess;
  /** Releases connections (Graph's pool); called when Steward stops. */
  close?(): Promise<void>;
}

/**
 * How a person's sign-in becomes a delegated grant on the platform. `exchange` rejects with
 * `DelegationUnavailable` (saying why, never a token) when it cannot: the deployment has no way to
 * exchange sign-ins, the person's token is not one the identity provider takes, or it refused.
 */
export interface DelegatedAccess {
  exchange(person: SignedInPerson): Promise<DelegatedGrant>;
  /**
   * A new token for the same person from the grant's `refreshToken`, once its own has lapsed
   * (its refresh token may be replaced too); rejects with `DelegationUnavailable` when it cannot.
   */
  refresh(grant: DelegatedGrant): Promise<DelegatedGrant>;
}
