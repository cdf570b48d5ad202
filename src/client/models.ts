/**
 * The client's types, taken from the wire models the server validates with (type-only imports:
 * nothing of the server is loaded at run time). Request bodies are the models' input types (what
 * a client may send, defaults optional, flags as booleans or "true"/"false"); answers are their
 * output types (what the server sends back).
 */
import type { z } from 'zod';
import type * as wire from '../contract';

export type { ODataCollection } from '../contract';

type In<T extends z.ZodType> = z.input<T>;
type Out<T extends z.ZodType> = z.output<T>;

// Errors
export type ApiError = Out<typeof wire.ApiError>;
export type ApiErrorDetail = Out<typeof wire.ApiErrorDetail>;

// Provisioning and jobs
export type Job = Out<typeof wire.Job>;
export type Jobs = Out<typeof wire.Jobs>;
export type PendingApproval = Out<typeof wire.PendingApproval>;
export type PendingApprovals = Out<typeof wire.PendingApprovals>;
export type JobStatus = Out<typeof wire.JobStatus>;
export type JobStep = Out<typeof wire.JobStep>;
export type JobWait = Out<typeof wire.JobWait>;
export type JobWaitReason = Out<typeof wire.JobWaitReason>;
export type StepStatus = Out<typeof wire.StepStatus>;
export type TeamProvisioningRequest = In<typeof wire.TeamProvisioningRequest>;
export type TeamRequestPreview = Out<typeof wire.TeamRequestPreview>;

// Joining teams (extensions)
export type DirectoryTeam = Out<typeof wire.DirectoryTeam>;
export type DirectoryTeams = Out<typeof wire.DirectoryTeams>;
export type SimilarTeam = Out<typeof wire.SimilarTeam>;
export type JoinRequest = Out<typeof wire.JoinRequest>;
export type JoinRequests = Out<typeof wire.JoinRequests>;
export type JoinRequestStatus = Out<typeof wire.JoinRequestStatus>;
export type JoinRequestPayload = In<typeof wire.JoinRequestPayload>;
export type JoinRequestDecision = In<typeof wire.JoinRequestDecision>;
export type ApprovedApprovalResponsePayload = In<typeof wire.ApprovedApprovalResponsePayload>;
export type RejectedApprovalResponsePayload = In<typeof wire.RejectedApprovalResponsePayload>;

// Teams
export type Team = Out<typeof wire.Team>;
export type TeamUpdate = In<typeof wire.TeamUpdate>;
export type TeamMember = Out<typeof wire.TeamMember>;
export type TeamMembershipPayload = In<typeof wire.TeamMembershipPayload>;
export type TeamChannel = Out<typeof wire.TeamChannel>;
export type TeamChannelPayload = In<typeof wire.TeamChannelPayload>;
export type TeamChannelTab = Out<typeof wire.TeamChannelTab>;
export type TeamChannelTabPayload = In<typeof wire.TeamChannelTabPayload>;
export type ArchiveTeamRequest = In<typeof wire.ArchiveTeamRequest>;

// Catalog
export type CatalogTemplate = Out<typeof wire.CatalogTemplate>;
export type CatalogTemplateInput = In<typeof wire.CatalogTemplate>;
export type CatalogTemplates = Out<typeof wire.CatalogTemplates>;
export type UnavailableTemplates = Out<typeof wire.UnavailableTemplates>;
export type PermanentMember = Out<typeof wire.PermanentMember>;
export type PermanentMemberInput = In<typeof wire.PermanentMember>;
export type PermanentMembership = Out<typeof wire.PermanentMembership>;
export type PermanentMembershipInput = In<typeof wire.PermanentMembership>;
export type PermanentMembershipRole = Out<typeof wire.PermanentMembershipRole>;

// Metadata
export type MetadataDocument = Out<typeof wire.MetadataDocument>;
export type MetadataQueryResult = Out<typeof wire.MetadataQueryResult>;

// Audit
export type AuditTrail = Out<typeof wire.AuditTrail>;
export type AuditTrails = Out<typeof wire.AuditTrails>;
export type AuditTrailRecord = Out<typeof wire.AuditTrailRecord>;
export type AuditTrailRecords = Out<typeof wire.AuditTrailRecords>;

// Directory
export type User = Out<typeof wire.User>;
export type Users = Out<typeof wire.Users>;
export type Label = Out<typeof wire.Label>;
export type Labels = Out<typeof wire.Labels>;

// Webhook helpers
export type EventType = wire.EventType;
export type HookSignatureRequest = In<typeof wire.HookSignatureRequest>;
export type HookSignature = Out<typeof wire.HookSignature>;
export type HookEvent = Out<typeof wire.HookEvent>;
export type HooksEvents = Out<typeof wire.HooksEvents>;

// Webhooks
export type Hook = Out<typeof wire.Hook>;
export type HookConfig = Out<typeof wire.Hook_config>;
export type HookPayload = In<typeof wire.HookPayload>;
export type HookSubscriptionPayload = In<typeof wire.HookSubscriptionPayload>;
export type Hooks = Out<typeof wire.Hooks>;
export type HookDelivery = Out<typeof wire.HookDelivery>;
export type HookDeliveries = Out<typeof wire.HookDeliveries>;

// Reports
export type Report = Out<typeof wire.Report>;
export type ReportsCategory = Out<typeof wire.ReportsCategory>;
export type ReportUrl = Out<typeof wire.ReportUrl>;

// Lifecycle governance (extensions)
export type LifecyclePolicy = Out<typeof wire.LifecyclePolicy>;
export type LifecyclePolicyInput = In<typeof wire.LifecyclePolicy>;
export type LifecycleAction = Out<typeof wire.LifecycleAction>;
export type LifecyclePreview = Out<typeof wire.LifecyclePreview>;
export type LifecycleRenewal = Out<typeof wire.LifecycleRenewal>;
export type TeamLifecycle = Out<typeof wire.TeamLifecycle>;
export type TeamLabelStatus = Out<typeof wire.TeamLabelStatus>;
export type LifecycleActivity = Out<typeof wire.LifecycleActivity>;
export type NotRightPersonAnswer = Out<typeof wire.NotRightPersonAnswer>;
export type LifecycleNotice = Out<typeof wire.LifecycleNotice>;
export type OwnershipStepUp = Out<typeof wire.OwnershipStepUp>;
export type GuestReviewInput = In<typeof wire.GuestReviewInput>;
export type GuestReview = Out<typeof wire.GuestReview>;
export type GovernanceManagers = Out<typeof wire.GovernanceManagers>;

// Template versions and drift (extensions)
export type TemplateVersion = Out<typeof wire.TemplateVersion>;
export type TemplateVersions = Out<typeof wire.TemplateVersions>;
export type TemplateChange = Out<typeof wire.TemplateChange>;
export type DriftDifference = Out<typeof wire.DriftDifference>;
export type TeamDrift = Out<typeof wire.TeamDrift>;
export type TemplateDriftTeams = Out<typeof wire.TemplateDriftTeams>;
export type TeamDriftApplyRequest = In<typeof wire.TeamDriftApplyRequest>;
export type TemplateDriftApplyRequest = In<typeof wire.TemplateDriftApplyRequest>;
export type TemplateDriftApplyResult = Out<typeof wire.TemplateDriftApplyResult>;
export type DriftOwnerAnswer = In<typeof wire.DriftOwnerAnswer>;
export type DriftOwnerAnswerResult = Out<typeof wire.DriftOwnerAnswerResult>;
