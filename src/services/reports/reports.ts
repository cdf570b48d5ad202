import type { DirectoryReader } from '../../domain/directory';
import { NotFound, Unauthorized, ValidationFailed } from '../../domain/errors';
import {
  findReport,
  REPORT_CATEGORIES,
  REPORT_PARAMETERS,
  REPORTS,
  type ReportDefinition,
  type ReportParameters,
  type ReportType,
} from '../../domain/reports/catalogue';
import { addDays, dayOf } from '../../domain/lifecycle/dates';
import { lifecycleView } from '../../domain/reports/lifecycleView';
import { type MetabaseEmbedding, metabaseEmbedUrl } from './metabase';
import {
  deriveReportUrlKey,
  REPORT_URL_TTL_SECONDS,
  type ReportGrant,
  signReportGrant,
  verifyReportToken,
} from './signedUrl';
import {
  approvalOutcomesView,
  archivedTeamsView,
  leadTimeView,
  orphanedTeamsView,
  overviewView,
  topRequestersView,
  teamsCreatedView,
} from '../../domain/reports/views';
import type { MissingLabels, ReportView } from '../../domain/reports/model';
import type { Report, ReportsCategory, ReportUrl } from '../../contract';
import type { TeamsPlatform } from '../../platform/port';
import type { LifecycleReportRepository } from '../../store/lifecycle/lifecycleReports';
import type { ReportFilter, ReportRepository } from '../../store/reports/reports';

/** How many people the top-requesters report lists. */
const TOP_REQUESTERS = 10;
/** How many teams each list of the lifecycle dashboard shows (its figures count them all). */
const LIFECYCLE_LISTED = 50;
/** How many teams without their template's label the governance overview lists (its figure counts them all). */
const MISSING_LABELS_LISTED = 200;
/** "Expiring soon" on the lifecycle dashboard: within this many days. */
const EXPIRING_WITHIN_DAYS = 30;

/** What the report service is built from. */
export interface ReportServiceDeps {
  store: ReportRepository;
  /** The lifecycle dashboard reads what the evaluator keeps of each team, and the audit trail. */
  lifecycle: LifecycleReportRepository;
  /** The lifecycle reports read the tenant's team inventory from the platform. */
  teams: TeamsPlatform;
  /** Requesters' display names. */
  directory: DirectoryReader;
  /** Teams made without their template's sensitivity label. */
  labels: { missing(limit: number): Promise<MissingLabels> };
  tenantId: string;
  /** The secret the URL signing key is derived from (`config.reports.urlSecret`). */
  urlSecret: string;
  /** When set, `url` answers Metabase signed embedding URLs instead of Steward's pages. */
  metabase?: MetabaseEmbedding;
  now?: () => Date;
}

/** A verified report page, computed and ready to render. */
export interface ReportPage {
  report: ReportDefinition;
  grant: ReportGrant;
  view: ReportView;
  generatedAt: Date;
}

/**
 * Reports: the catalogue, short-lived signed URLs to them, and the numbers behind each page,
 * computed from the store (jobs, approvals) and the platform's team inventory when a page is viewed.
 */
export class ReportService {
  private readonly key: Buffer;
  private readonly now: () => Date;

  constructor(private readonly deps: ReportServiceDeps) {
    this.key = deriveReportUrlKey(deps.urlSecret);
    this.now = deps.now ?? (() => new Date());
  }

  /** The categories reports are listed under. */
  categories(): ReportsCategory[] {
    return REPORT_CATEGORIES.map((c) => ({ id: c.id, title: c.title, description: c.description }));
  }

  /** Every report of the catalogue. */
  list(): Report[] {
    return REPORTS.map((r) => ({
      id: r.id,
      type: r.type,
      title: r.title,
      description: r.description,
      logo: r.logo,
      parameters: [...r.parameters],
      category_id: r.categoryId,
    }));
  }

  /**
   * A URL to view a report for 10 minutes: Steward's signed page under `baseUrl`, or a Metabase
   * signed embedding URL. NotFound for an unknown report; ValidationFailed for a parameter the
   * report does not take, or `from` after `to`.
   */
  async url(type: ReportType, id: string, params: ReportParameters, baseUrl: string): Promise<ReportUrl> {
    const report = findReport(type, id);
    if (!report) throw new NotFound(`There is no ${type} ${id}.`);
    const given = checkParameters(report, params);
    const exp = Math.floor(this.now().getTime() / 1000) + REPORT_URL_TTL_SECONDS;
    const tenantId = this.deps.tenantId;
    if (this.deps.metabase) {
      return {
        url: await metabaseEmbedUrl(this.deps.metabase, report, { tenantId, params: given, expiresAt: exp }),
      };
    }
    const token = signReportGrant(this.key, { tenantId, type, id, params: given, exp });
    return { url: `${baseUrl}/reports/${type}/${encodeURIComponent(id)}?token=${token}` };
  }

  /**
   * The page a signed URL shows. Unauthorized when the token is missing, tampered with, expired,
   * or made for another report or tenant; NotFound when its report left the catalogue.
   */
  async page(type: string, id: string, token: string | undefined): Promise<ReportPage> {
    const generatedAt = this.now();
    const check = verifyReportToken(
      this.key,
      token ?? '',
      { tenantId: this.deps.tenantId, type, id },
      generatedAt.getTime() / 1000,
    );
    if (!check.ok) {
      throw new Unauthorized(
        check.reason === 'expired'
          ? 'This report link has expired. Ask Steward for a new one (links work for 10 minutes).'
          : 'This report link is not valid. Ask Steward for a new one.',
      );
    }
    const report = findReport(check.grant.type, check.grant.id);
    if (!report) throw new NotFound(`There is no ${check.grant.type} ${check.grant.id} any more.`);
    return { report, grant: check.grant, view: await this.compute(report, check.grant.params), generatedAt };
  }

  /** The numbers of a report for the given parameters. */
  async compute(report: ReportDefinition, params: ReportParameters): Promise<ReportView> {
    const filter = toFilter(params);
    const store = this.deps.store;
    switch (report.id) {
      case 'governance-overview': {
        const [created, outcomes, inventory, missing] = await Promise.all([
          store.teamsCreated(filter),
          store.approvalOutcomes(filter),
          this.deps.teams.listTeamInventory(),
          this.deps.labels.missing(MISSING_LABELS_LISTED),
        ]);
        return overviewView(created, outcomes, inventory, missing);
      }
      case 'teams-created':
        return teamsCreatedView(await store.teamsCreated(filter));
      case 'provisioning-lead-time': {
        const [lead, waits] = await Promise.all([store.leadTimes(filter), store.approvalWaits(filter)]);
        return leadTimeView(lead, waits);
      }
      case 'approval-outcomes':
        return approvalOutcomesView(await store.approvalOutcomes(filter));
      case 'archived-teams':
        return archivedTeamsView(await this.deps.teams.listTeamInventory());
      case 'orphaned-teams':
        return orphanedTeamsView(await this.deps.teams.listTeamInventory());
      case 'lifecycle-overview': {
        const today = dayOf(this.now());
        const soon = addDays(today, EXPIRING_WITHIN_DAYS);
        return lifecycleView(
          await this.deps.lifecycle.dashboard(today, soon, filter, LIFECYCLE_LISTED),
          LIFECYCLE_LISTED,
        );
      }
      case 'top-requesters': {
        const counts = await store.topRequesters(filter, TOP_REQUESTERS);
        const people = await this.deps.directory.findUsers(counts.map((c) => c.requesterId));
        return topRequestersView(
          counts.map((c) => ({ ...c, displayName: people.get(c.requesterId)?.displayName ?? c.requesterId })),
        );
      }
      default:
        throw new NotFound(`There is no ${report.type} ${report.id}.`);
    }
  }
}

/** The parameters the report takes, refusing the others and an empty date range. */
function checkParameters(report: ReportDefinition, params: ReportParameters): ReportParameters {
  const given: ReportParameters = {};
  const refused = REPORT_PARAMETERS.filter(
    (name) => params[name] !== undefined && !report.parameters.includes(name),
  );
  if (refused.length > 0) {
    throw new ValidationFailed(
      `The ${report.type} ${report.id} takes ${report.parameters.length > 0 ? report.parameters.join(', ') : 'no parameter'}.`,
      refused.map((name) => ({
        code: 'unknownParameter',
        target: `query.${name}`,
        message: `Not a parameter of ${report.id}.`,
      })),
    );
  }
  for (const name of report.parameters) if (params[name] !== undefined) given[name] = params[name];
  if (given.from && given.to && given.from > given.to) {
    throw new ValidationFailed('`from` is after `to`.', [
      { code: 'invalidRange', target: 'query.from', message: 'Must be on or before `to`.' },
    ]);
  }
  return given;
}

/** Inclusive dates as a time window over ISO timestamps (`to` covers its whole day, UTC). */
function toFilter(params: ReportParameters): ReportFilter {
  const filter: ReportFilter = {};
  if (params.from) filter.since = params.from;
  if (params.to) {
    const next = new Date(`${params.to}T00:00:00.000Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    // Dates were validated when the URL was issued; an impossible one would only widen nothing.
    filter.until = Number.isNaN(next.getTime()) ? params.to : next.toISOString().slice(0, 10);
  }
  if (params.template_id) filter.templateId = params.template_id;
  return filter;
}
