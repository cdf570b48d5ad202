import type * as MSGraph from '@microsoft/microsoft-graph-types';
import { type GraphLimits } from './limits';
import { type Json, type Reply } from './protocol';

/** The simulator's records of the tenant, the options it starts with, and Graph's constants it enforces. */

/** One request as the fake received it. */
export interface LoggedRequest {
  method: string;
  /** Path and query as sent (still percent-encoded). */
  path: string;
  headers: Record<string, string>;
  body: unknown;
  /** Milliseconds since the epoch. */
  at: number;
  /** The status answered (set once the answer is known). */
  status?: number;
}

export interface FakeUser {
  id: string;
  displayName: string;
  userPrincipalName: string;
  givenName?: string | null;
  surname?: string | null;
  mail?: string | null;
  jobTitle?: string | null;
  department?: string | null;
  companyName?: string | null;
  country?: string | null;
  city?: string | null;
  usageLocation?: string | null;
  preferredLanguage?: string | null;
}

export interface GroupRecord {
  id: string;
  displayName: string;
  description: string | null;
  mailNickname: string;
  visibility: 'Public' | 'Private';
  classification: string | null;
  uniqueName: string | null;
  ownerIds: Set<string>;
  memberIds: Set<string>;
  assignedLabels: Array<{ labelId: string }>;
  extensions: Map<string, Json>;
  /** Until then (ms since the epoch) reads of the group answer 404: Graph has not replicated it yet. */
  visibleAt?: number;
}

export interface TeamRecord {
  id: string;
  internalId: string;
  createdDateTime: string;
  isArchived: boolean;
  siteReadOnlyForMembers: boolean;
  settings: Record<string, Json>;
  members: Array<{ id: string; userId: string; roles: string[] }>;
  channels: ChannelRecord[];
  /** Catalog ids of the apps installed in the team. */
  installedApps: Set<string>;
  /** Until then (ms since the epoch) the team answers 404: Graph has not replicated it yet. */
  visibleAt: number;
  /** The day (YYYY-MM-DD) of the team's last activity, as the Teams activity report gives it. */
  lastActivityDate?: string;
}

export interface ChannelRecord {
  id: string;
  displayName: string;
  description: string | null;
  membershipType: string;
  createdDateTime: string;
  tabs: Array<{ id: string; displayName: string; teamsAppId: string; configuration: Json }>;
  messages: Array<{ id: string; contentType: string; content: string; from?: string }>;
}

export interface OperationRecord {
  id: string;
  teamId: string;
  operationType: MSGraph.TeamsAsyncOperationType;
  createdDateTime: string;
  pendingPolls: number;
  /** Not finished before then (ms since the epoch). */
  readyAt: number;
  polls: number;
  failure: string | undefined;
  targetResourceId: string;
  /** The channel a `createChannel` operation makes. */
  channelName?: string;
  finish: () => void;
  status: 'notStarted' | 'inProgress' | 'succeeded' | 'failed';
}

export interface Fault {
  method: string | undefined;
  path: RegExp;
  remaining: number;
  status: number;
  retryAfter: string | undefined;
  /** Graph did the work, then the answer was lost: the request is handled before the fault answers. */
  afterHandling?: boolean;
}

export interface FakeGraphOptions {
  tenantId?: string;
  clientId?: string;
  clientSecret?: string;
  /** Polls an operation answers notStarted / inProgress before it ends (default 1). */
  operationPolls?: number;
  /** Items per collection page at most (default 100). */
  pageSize?: number;
  /** How long operations take at least, drawn uniformly between the bounds (default 0). */
  latency?: { minMs: number; maxMs: number };
  /** A new team answers 404 this long after it is made (default 0). */
  replicationMs?: number;
  /**
   * A group made by `PATCH /groups(uniqueName=…)` is invisible for up to this long (default 0):
   * reads of it answer 404, and `POST /teams` from it answers 404 until it is replicated. Each
   * group's delay is drawn uniformly between 0 and this (scaled).
   */
  groupReplicationMs?: number;
  /** The draw of each group's replication delay, between 0 and 1 (default `Math.random`). */
  random?: () => number;
  /** A private or shared channel's files folder answers 404 this long after the channel is made (default 0). */
  filesFolderMs?: number;
  /** The throttling limits (default: none enforced); `PUBLISHED_LIMITS` are Microsoft's. */
  limits?: GraphLimits;
  /** Multiplies every limit and latency (default 1). */
  scale?: number;
  /** `Retry-After` (seconds) on unfinished operations, as Graph may send (default none). */
  operationRetryAfter?: number;
  /**
   * Steward's bot: its app registration, and its Teams app's manifest id (`teamsAppId`). The app is
   * in the organisation's catalog from the start, as an administrator publishes it: a catalog `id`
   * of the fake's own making and `externalId` = the manifest id (`stewardApp()`).
   */
  bot?: { appId: string; secret: string; teamsAppId: string };
  /** The throttle's clock (default `Date.now`); tests stop it to count tokens exactly. */
  now?: () => number;
  /** Port to listen on (default: any free one). */
  port?: number;
}

export type Handler = (request: ParsedRequest, ...params: string[]) => Reply;

export interface ParsedRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Json;
  /** The body as sent, when it is not JSON (a file's content). */
  text?: string;
  /** The body's bytes as sent (an app package's zip). */
  raw?: Buffer;
}

/** Who calls: what the fake reads from the bearer token (`identity.ts` issues it). */
export interface Caller {
  idtyp: 'app' | 'user';
  /** Delegated tokens: the delegated permissions, space-separated. */
  scp?: string;
  /** Delegated tokens: the template ids of the person's Microsoft Entra roles. */
  wids?: string[];
}

/** Microsoft Entra built-in roles' template ids (Entra ID docs, "Microsoft Entra built-in roles"). */
export const ENTRA_ROLES = {
  globalAdministrator: '62e90394-69f5-4237-9190-012177145e10',
  privilegedRoleAdministrator: 'e8611ab8-c189-46e8-94e1-60213ab1f814',
  applicationAdministrator: '9b895d92-2cd3-44c7-9d02-a6ac2d5ea5c3',
  cloudApplicationAdministrator: '158c047a-c907-4556-b7ef-446551a6b5f7',
  teamsAdministrator: '69091246-20e8-4a56-aa4d-066075b2a7a8',
} as const;

export const MEMBER_TYPE = '#microsoft.graph.aadUserConversationMember';
/** Owners and members one group request takes (`api/group-post-groups.md`). */
export const GROUP_REQUEST_PEOPLE = 20;
/** Members one `conversationMember: add` takes (`api/conversationmembers-add.md`). */
export const BULK_ADD_LIMIT = 200;
export const PARTS = ['apps', 'tabs', 'settings', 'channels', 'members'];

/** A running fake Graph. */
