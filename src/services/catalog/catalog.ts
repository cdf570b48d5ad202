import type { Kysely } from 'kysely';
import { BoundedCache } from '../../lib/boundedCache';
import { deepFreeze } from '../../lib/deepFreeze';
import { callerRecord } from '../../domain/audit';
import type { Caller } from '../../domain/caller';
import { NotFound } from '../../domain/errors';
import { type CompiledRule, compileRule } from '../../domain/rules';
import type {
  CatalogTemplate,
  PermanentMember,
  PermanentMembership,
  PermanentMembershipRole,
  TemplateVersion,
  UnavailableTemplate,
} from '../../contract';
import type { Database } from '../../store/schema';
import type { StoredTemplate, TemplateRepository } from '../../store/catalog/templates';
import type { AuditLog } from '../audit/audit';
import type { DirectoryService, RuleSubject } from '../directory/directory';
import { validateTemplate } from './templateValidation';
import { refuseTypeChange } from './workspaceTypeValidation';
import type { JobRepository } from '../../store/jobs/jobs';

/** What the catalog logs: rules that break at evaluation hide their template and are reported. */
export interface CatalogLogger {
  warn(details: object, message: string): void;
}

const RULE_CACHE_LIMIT = 1000;

/** The template catalog: listing with audience targeting, saving with validation, permanent membership. */
export class CatalogService {
  private readonly rules = new BoundedCache<string, CompiledRule>(RULE_CACHE_LIMIT);
  private enabled?: { templates: Promise<readonly CatalogTemplate[]>; expiresAt: number };
  /**
   * Each caller's templates, kept with the directory facts the rules saw (the directory shares one
   * subject object per caller until it reloads them) and for the enabled list they were picked
   * from (a new list after any change to the catalog): a repeat read evaluates no rule.
   */
  private readonly audiences = new WeakMap<
    RuleSubject,
    { from: readonly CatalogTemplate[]; visible: readonly CatalogTemplate[] }
  >();

  private readonly templates: TemplateRepository;
  private readonly directory: DirectoryService;
  private readonly now: () => Date;
  private readonly enabledTtlMs: number;

  /**
   * `enabledTtlMs`: how long the enabled templates are reused for listings. Writes through this
   * service refresh them at once; other processes sharing the database see a change after at most this long.
   */
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      templates: TemplateRepository;
      /** Whether teams were requested from a template (its workspace type is then fixed). */
      jobs: Pick<JobRepository, 'templateInUse'>;
      directory: DirectoryService;
      audit: AuditLog;
      log: CatalogLogger;
      now?: () => Date;
      enabledTtlMs?: number;
    },
  ) {
    this.templates = deps.templates;
    this.directory = deps.directory;
    this.now = deps.now ?? (() => new Date());
    this.enabledTtlMs = deps.enabledTtlMs ?? 1000;
  }

  /** Every template, enabled or not (catalog managers and apps). */
  async listAll(): Promise<CatalogTemplate[]> {
    return (await this.templates.list()).map((s) => s.template);
  }

  /** The enabled templates whose audience includes the caller (a shared, frozen list). */
  async listForCaller(caller: Caller): Promise<readonly CatalogTemplate[]> {
    const [enabled, subject] = await Promise.all([
      this.enabledTemplates(),
      this.directory.ruleSubject(caller),
    ]);
    const kept = this.audiences.get(subject);
    if (kept?.from === enabled) return kept.visible;
    const visible = Object.freeze(enabled.filter((t) => this.isTargeted(t, subject)));
    this.audiences.set(subject, { from: enabled, visible });
    return visible;
  }

  /**
   * The enabled templates whose audience leaves the caller out: their id, name and description, and
   * who they are for in the catalog's plain words. Never their rules' code.
   */
  async listUnavailableToCaller(caller: Caller): Promise<UnavailableTemplate[]> {
    const [enabled, visible] = await Promise.all([this.enabledTemplates(), this.listForCaller(caller)]);
    const offered = new Set(visible);
    return enabled
      .filter((template) => !offered.has(template) && template.templateConfiguration.id)
      .map(({ templateConfiguration: config }) => ({
        id: config.id ?? '',
        name: config.name,
        description: config.description,
        workspaceType: config.workspaceType,
        audience: config.audienceTargeting.rulesWithTags?.trim() || null,
      }));
  }

  /** One template; a plain user sees it only when it is enabled and targeted to them. */
  async get(id: string, caller: Caller): Promise<CatalogTemplate> {
    return (await this.getVersioned(id, caller)).template;
  }

  /** One template as `get` shows it, with its current version, read together. */
  async getVersioned(id: string, caller: Caller): Promise<{ template: CatalogTemplate; version: number }> {
    const stored = await this.templates.get(id);
    if (!stored) throw new NotFound(`No template "${id}".`);
    const template = stored.template;
    if (caller.privileged) return { template, version: stored.version };
    const visible =
      template.templateConfiguration.enabled &&
      this.isTargeted(template, await this.directory.ruleSubject(caller));
    if (!visible) throw new NotFound(`No template "${id}".`);
    return { template, version: stored.version };
  }

  /** Creates or replaces a template after checking its rules, conventions and people. */
  async put(caller: Caller, id: string, input: CatalogTemplate): Promise<CatalogTemplate> {
    const template = await validateTemplate(id, input, this.directory);
    await refuseTypeChange(id, template, this.deps);
    const now = this.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const { created, stored } = await this.templates.put(
        template,
        now.toISOString(),
        trx,
        authorOf(caller),
      );
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'catalog',
          action: created ? 'template_created' : 'template_updated',
          target: { type: 'template', id, displayName: template.templateConfiguration.name },
          details: {
            revision: stored.revision,
            version: stored.version,
            enabled: template.templateConfiguration.enabled,
          },
        }),
        now,
      );
    });
    this.enabled = undefined;
    return template;
  }

  /**
   * A page of a template's versions, newest first, each with its differences from the one before;
   * seen by whoever may see the template.
   */
  async versions(
    caller: Caller,
    id: string,
    page: { top: number; skip: number },
  ): Promise<{ versions: TemplateVersion[]; total: number }> {
    await this.get(id, caller);
    return this.templates.versions.list(id, page);
  }

  /** A template as stored, with its current version (drift and provisioning). */
  async stored(id: string): Promise<StoredTemplate> {
    const stored = await this.templates.get(id);
    if (!stored) throw new NotFound(`No template "${id}".`);
    return stored;
  }

  /** A template's permanent owners and members. */
  async getPermanentMembership(id: string): Promise<PermanentMembership> {
    return (await this.require(id)).templateConfiguration.permanentMembership;
  }

  /** The permanent owners or members of a template. */
  async getPermanentMembers(id: string, role: PermanentMembershipRole): Promise<PermanentMember[]> {
    return (await this.getPermanentMembership(id))[role];
  }

  /** Replaces a template's permanent membership (people resolved against the directory). */
  async setPermanentMembership(
    caller: Caller,
    id: string,
    membership: PermanentMembership,
  ): Promise<PermanentMembership> {
    await this.require(id);
    const resolved = {
      owners: await this.directory.resolveMembers(membership.owners, 'owners'),
      members: await this.directory.resolveMembers(membership.members, 'members'),
    };
    await this.updateMembership(caller, id, () => resolved);
    return resolved;
  }

  /** Replaces the permanent owners or members of a template, leaving the other role as it is. */
  async setPermanentMembers(
    caller: Caller,
    id: string,
    role: PermanentMembershipRole,
    members: readonly PermanentMember[],
  ): Promise<PermanentMember[]> {
    await this.require(id);
    const resolved = await this.directory.resolveMembers(members, '');
    await this.updateMembership(caller, id, (current) => ({ ...current, [role]: resolved }));
    return resolved;
  }

  private async updateMembership(
    caller: Caller,
    id: string,
    change: (current: PermanentMembership) => PermanentMembership,
  ): Promise<void> {
    const now = this.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const updated = await this.templates.update(
        id,
        (template) => ({
          ...template,
          templateConfiguration: {
            ...template.templateConfiguration,
            permanentMembership: change(template.templateConfiguration.permanentMembership),
          },
        }),
        now.toISOString(),
        trx,
        authorOf(caller),
      );
      if (!updated) throw new NotFound(`No template "${id}".`);
      const { owners, members } = updated.templateConfiguration.permanentMembership;
      await this.deps.audit.record(
        trx,
        callerRecord(caller, {
          trail: 'catalog',
          action: 'permanent_membership_updated',
          target: { type: 'template', id, displayName: updated.templateConfiguration.name },
          details: { owners: owners.map((o) => o.id), members: members.map((m) => m.id) },
        }),
        now,
      );
    });
    this.enabled = undefined;
  }

  /** The enabled templates, shared (and frozen) between requests for `enabledTtlMs`. */
  private enabledTemplates(): Promise<readonly CatalogTemplate[]> {
    const now = Date.now();
    if (!this.enabled || now >= this.enabled.expiresAt) {
      const templates = this.templates
        .list({ enabledOnly: true })
        .then((stored) => stored.map((s) => deepFreeze(s.template)));
      this.enabled = { templates, expiresAt: now + this.enabledTtlMs };
      // A failed load is not kept: the next request tries again.
      templates.catch(() => {
        if (this.enabled?.templates === templates) this.enabled = undefined;
      });
    }
    return this.enabled.templates;
  }

  /** True when the template has no audience rule or its rule holds for `subject`. */
  private isTargeted(template: CatalogTemplate, subject: RuleSubject): boolean {
    const targeting = template.templateConfiguration.audienceTargeting;
    if (!targeting.enabled) return true;
    try {
      return this.rule(targeting.rules).matches(subject as unknown as Record<string, unknown>);
    } catch (error) {
      this.deps.log.warn(
        { templateId: template.templateConfiguration.id, reason: (error as Error).message },
        'audience rule failed to evaluate; template hidden',
      );
      return false;
    }
  }

  private rule(source: string): CompiledRule {
    return this.rules.getOrMake(source, () => compileRule(source));
  }

  private async require(id: string): Promise<CatalogTemplate> {
    const stored = await this.templates.get(id);
    if (!stored) throw new NotFound(`No template "${id}".`);
    return stored.template;
  }
}

/** Who saved a version: the caller's id and name, from their token. */
function authorOf(caller: Caller): { id: string; name: string | null } {
  return { id: caller.id, name: caller.name ?? null };
}
