import { NotFound } from '../domain/errors';
import type { Logger } from 'pino';
import type { Config } from '../config';
import type { Platform } from '../platform/port';
import { ApprovalService } from '../services/approvals/approvals';
import { AuditLog } from '../services/audit/audit';
import { RefusalGuard } from '../services/access/refusals';
import { ApprovalTimers } from '../services/approvals/approvalTimers';
import { RefusalRepository } from '../store/access/refusals';
import { CatalogService } from '../services/catalog/catalog';
import { DirectoryService } from '../services/directory/directory';
import { EventBus } from '../services/webhooks/events';
import { GovernanceManagerLookup } from '../services/access/governanceManagers';
import { HookService } from '../services/webhooks/hooks';
import { HookSubscriptions } from '../services/webhooks/subscriptions';
import { HookSecrets } from '../services/webhooks/hookSecrets';
import { LifecycleEvaluations } from '../services/lifecycle/evaluations';
import { LifecycleOwnerAnswers } from '../services/lifecycle/ownerAnswers';
import { LifecycleResponses } from '../services/lifecycle/responses';
import { LifecycleService } from '../services/lifecycle/service';
import { LifecycleWalker } from '../services/lifecycle/walker';
import { MetadataService } from '../services/teams/metadata';
import { ProvisioningService } from '../services/provisioning/provisioning';
import { ReportService } from '../services/reports/reports';
import { SensitivityLabels } from '../services/labels/sensitivityLabels';
import { TeamAccess } from '../services/access/teamAccess';
import { TeamService } from '../services/teams/teams';
import { JoiningService } from '../services/joining/joining';
import { JoinRequestRepository } from '../store/joining/joinRequests';
import { type HostResolver, systemResolver, WebhookSender } from '../services/webhooks/webhookSender';
import { ApprovalRepository } from '../store/approvals/approvals';
import { AuditRepository } from '../store/audit/audit';
import type { Store } from '../store/database';
import { HookRepository } from '../store/webhooks/hooks';
import { HookSecretRepository } from '../store/webhooks/hookSecrets';
import { GuestReviewRecords } from '../store/lifecycle/guestReviews';
import { JobRepository } from '../store/jobs/jobs';
import { LifecycleRepository } from '../store/lifecycle/lifecycle';
import { MetadataRepository } from '../store/teams/metadata';
import { OutboxRepository } from '../store/webhooks/outbox';
import { LifecycleReportRepository } from '../store/lifecycle/lifecycleReports';
import { ReportRepository } from '../store/reports/reports';
import { SensitivityLabelRepository } from '../store/labels/sensitivityLabels';
import { TemplateRepository } from '../store/catalog/templates';
import { TeamTemplateRepository } from '../store/drift/teamTemplates';
import { DriftService } from '../services/drift/drift';
import { JobTypes } from '../services/jobs/registry';
import { JOB_TYPES, type JobWorld } from './jobTypes';

/** The application services, and the repositories and senders the job worker shares with them. */
export interface Services {
  directory: DirectoryService;
  catalog: CatalogService;
  metadata: MetadataService;
  audit: AuditLog;
  events: EventBus;
  provisioning: ProvisioningService;
  approvals: ApprovalService;
  teams: TeamService;
  /** The team directory and requests to join teams. */
  joining: JoiningService;
  hooks: HookService;
  hookSubscriptions: HookSubscriptions;
  reports: ReportService;
  jobs: JobRepository;
  hookStore: HookRepository;
  hookSecrets: HookSecrets;
  sender: WebhookSender;
  /** Refused calls (401, 403): per-source limit and aggregated security records. */
  refusals: RefusalGuard;
  /** What approval stages' timers do when the worker runs them. */
  approvalTimers: ApprovalTimers;
  /** Lifecycle governance: the API's operations, and the evaluations the worker runs. */
  lifecycle: LifecycleService;
  lifecycleEvaluations: LifecycleEvaluations;
  /** Owners' answers to a notice besides renewing or archiving ("Keep it", "not the right person"). */
  lifecycleAnswers: LifecycleOwnerAnswers;
  /** What people answer to the lifecycle's cards: stepping up as owner, guest reviews. */
  lifecycleResponses: LifecycleResponses;
  /** Who is told about teams nobody owns. */
  governanceManagers: GovernanceManagerLookup;
  /** Sensitivity labels, put on with a person's delegated grant. */
  labels: SensitivityLabels;
  /** Template drift: teams against their template's current version, and bringing them in line. */
  drift: DriftService;
  /** Every registered job type (`jobTypes.ts`): their steps for the API, their handlers for a worker. */
  jobTypes: JobTypes<JobWorld>;
  /** Steward's clock (epoch ms): the system's, or a test's. */
  clock: () => number;
}

/**
 * Builds the services over the store and the platform. `onQueued` is called when a job becomes
 * runnable in this process (the worker's `wake`), including webhook deliveries of committed events.
 */
export function buildServices(
  config: Config,
  { store, platform }: { store: Store; platform: Platform },
  logger: Logger,
  options: {
    resolveHost?: HostResolver;
    onQueued: () => void;
    /** Steward's clock (epoch ms) for the services and timers; tests move it. */
    clock?: () => number;
    now?: () => Date;
  },
): Services {
  const clock = options.clock ?? Date.now;
  const now = options.now ?? (() => new Date(clock()));
  const db = store.db;
  const directory = new DirectoryService(platform.directory, undefined, clock);
  const templates = new TemplateRepository(db);
  const jobs = new JobRepository(db);
  const jobTypes = new JobTypes<JobWorld>(JOB_TYPES);
  const events = new EventBus(new OutboxRepository(db), config.tenantId, logger);
  const audit = new AuditLog(new AuditRepository(db), config.tenantId);
  const catalog = new CatalogService({ db, templates, jobs, directory, audit, log: logger });
  const metadataStore = new MetadataRepository(db);
  const metadata = new MetadataService({ db, store: metadataStore, teams: platform.teams, audit, now });
  const hookStore = new HookRepository(db);
  const policy = { allowLoopback: config.webhooks.allowLoopback };
  const resolve = options.resolveHost ?? systemResolver;
  const sender = new WebhookSender({ ...config.webhooks, policy, resolve });
  const { onQueued } = options;
  const hookSecrets = new HookSecrets(new HookSecretRepository(db), config.delegatedGrants.sealSecret);
  const hookDeps = { db, hooks: hookStore, secrets: hookSecrets, jobs, audit, policy, resolve, now };
  const hooks = new HookService(hookDeps);
  const hookSubscriptions = new HookSubscriptions(hookDeps, hooks, (id) =>
    catalog.stored(id).then(
      () => true,
      (error: unknown) => {
        if (error instanceof NotFound) return false;
        throw error;
      },
    ),
  );
  // Deliveries are queued in the transaction of each event; committed events wake the worker.
  events.onRecord(hooks.enqueueDeliveries);
  events.subscribe(onQueued);
  const approvalStore = new ApprovalRepository(db);
  const labels = new SensitivityLabels({
    store: new SensitivityLabelRepository(db),
    platform,
    access: new TeamAccess(platform.teams),
    grants: config.delegatedGrants,
    now,
  });
  const common = {
    db,
    jobs,
    jobTypes,
    approvals: approvalStore,
    events,
    audit,
    directory,
    onQueued,
    now,
    labels,
  };
  const reports = new ReportService({
    labels,
    store: new ReportRepository(db),
    lifecycle: new LifecycleReportRepository(db),
    teams: platform.teams,
    directory: platform.directory,
    tenantId: config.tenantId,
    urlSecret: config.reports.urlSecret,
    metabase: config.reports.metabase,
    now,
  });
  const lifecycleStore = new LifecycleRepository(db);
  const walker = new LifecycleWalker({
    source: platform.lifecycle,
    store: lifecycleStore,
    templates,
    pageSize: config.lifecycle.pageSize,
  });
  const lifecycleDeps = { db, store: lifecycleStore, walker, audit, events };
  return {
    lifecycle: new LifecycleService({ ...lifecycleDeps, teams: platform.teams, now }),
    lifecycleAnswers: new LifecycleOwnerAnswers({ ...lifecycleDeps, teams: platform.teams, now }),
    lifecycleEvaluations: new LifecycleEvaluations({
      ...lifecycleDeps,
      jobs,
      jobTypes,
      onQueued,
      clock,
      dailyAtMinute: config.lifecycle.dailyAtMinute,
    }),
    lifecycleResponses: new LifecycleResponses({
      db,
      jobs,
      audit,
      walker,
      teams: platform.teams,
      directory,
      reviews: new GuestReviewRecords(),
      now,
      onQueued,
    }),
    governanceManagers: new GovernanceManagerLookup({
      directory: platform.directory,
      ...config.governanceManagers,
      log: logger,
    }),
    directory,
    catalog,
    metadata,
    audit,
    events,
    labels,
    drift: new DriftService({
      ...common,
      directory: platform.directory,
      teams: platform.teams,
      catalog,
      teamTemplates: new TeamTemplateRepository(db),
      labelStore: new SensitivityLabelRepository(db),
    }),
    provisioning: new ProvisioningService({ ...common, catalog }),
    approvals: new ApprovalService({ ...common, templates }),
    approvalTimers: new ApprovalTimers(common),
    clock,
    teams: new TeamService({ ...common, teams: platform.teams }),
    joining: new JoiningService({
      db,
      teams: platform.teams,
      templates,
      jobs,
      requests: new JoinRequestRepository(),
      events,
      audit,
      onQueued,
      now,
    }),
    hooks,
    hookSubscriptions,
    reports,
    jobs,
    jobTypes,
    hookStore,
    hookSecrets,
    sender,
    refusals: new RefusalGuard({
      perMinute: config.refusalsPerMinute,
      tenantId: config.tenantId,
      store: new RefusalRepository(db),
      now,
      onError: (error) => logger.error({ err: error }, 'could not record a refused call'),
    }),
  };
}
