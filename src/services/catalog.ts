import type { Kysely } from 'kysely';
import { actorOf } from '../domain/audit';
import type { Caller } from '../domain/caller';
import { type ErrorDetail, NotFound, ValidationFailed } from '../domain/errors';
import { type CompiledRule, compileConvention, compileRule, RuleSyntaxError } from '../domain/rules';
import type {
  CatalogTemplate,
  PermanentMember,
  PermanentMembership,
  PermanentMembershipRole,
} from '../domain/wire';
import type { Database } from '../store/schema';
import type { TemplateRepository } from '../store/templates';
import type { AuditLog } from './audit';
import type { DirectoryService, RuleSubject } from './directory';

/** What the catalog logs: rules that break at evaluation hide their template and are reported. */
export interface CatalogLogger {
  warn(details: object, message: string): void;
}

const CONVENTIONS = [
  'namingConvention',
  'emailConvention',
  'descriptionConvention',
  'welcomeMessageConvention',
] as const;
const RULE_CACHE_LIMIT = 1000;

/** The template catalog: listing with audience targeting, saving with validation, permanent membership. */
export class CatalogService {
  private readonly rules = new Map<string, CompiledRule>();
  private enabled?: { templates: Promise<readonly CatalogTemplate[]>; expiresAt: number };

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

  /** The enabled templates whose audience includes the caller. */
  async listForCaller(caller: Caller): Promise<CatalogTemplate[]> {
    const [enabled, subject] = await Promise.all([
      this.enabledTemplates(),
      this.directory.ruleSubject(caller),
    ]);
    return enabled.filter((t) => this.isTargeted(t, subject));
  }

  /** One template; a plain user sees it only when it is enabled and targeted to them. */
  async get(id: string, caller: Caller): Promise<CatalogTemplate> {
    const template = (await this.templates.get(id))?.template;
    if (!template) throw new NotFound(`No template "${id}".`);
    if (caller.privileged) return template;
    const visible =
      template.templateConfiguration.enabled &&
      this.isTargeted(template, await this.directory.ruleSubject(caller));
    if (!visible) throw new NotFound(`No template "${id}".`);
    return template;
  }

  /** Creates or replaces a template after checking its rules, conventions and people. */
  async put(caller: Caller, id: string, input: CatalogTemplate): Promise<CatalogTemplate> {
    const template = await this.validate(id, input);
    const now = this.now();
    await this.deps.db.transaction().execute(async (trx) => {
      const { created, stored } = await this.templates.put(template, now.toISOString(), trx);
      await this.deps.audit.record(
        trx,
        {
          trail: 'catalog',
          action: created ? 'template_created' : 'template_updated',
          actor: actorOf(caller),
          target: { type: 'template', id, displayName: template.templateConfiguration.name },
          outcome: 'success',
          requestId: caller.requestId ?? null,
          details: { revision: stored.revision, enabled: template.templateConfiguration.enabled },
        },
        now,
      );
    });
    this.enabled = undefined;
    return template;
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
      );
      if (!updated) throw new NotFound(`No template "${id}".`);
      const { owners, members } = updated.templateConfiguration.permanentMembership;
      await this.deps.audit.record(
        trx,
        {
          trail: 'catalog',
          action: 'permanent_membership_updated',
          actor: actorOf(caller),
          target: { type: 'template', id, displayName: updated.templateConfiguration.name },
          outcome: 'success',
          requestId: caller.requestId ?? null,
          details: { owners: owners.map((o) => o.id), members: members.map((m) => m.id) },
        },
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
    let compiled = this.rules.get(source);
    if (!compiled) {
      compiled = compileRule(source);
      if (this.rules.size >= RULE_CACHE_LIMIT) this.rules.clear();
      this.rules.set(source, compiled);
    }
    return compiled;
  }

  private async require(id: string): Promise<CatalogTemplate> {
    const stored = await this.templates.get(id);
    if (!stored) throw new NotFound(`No template "${id}".`);
    return stored.template;
  }

  /** Every semantic check of a template; the shape was checked by its schema already. */
  private async validate(id: string, input: CatalogTemplate): Promise<CatalogTemplate> {
    const config = input.templateConfiguration;
    const details: ErrorDetail[] = [];
    if (config.id !== undefined && config.id !== id) {
      details.push({
        code: 'idMismatch',
        target: 'templateConfiguration.id',
        message: `The body's id "${config.id}" differs from the path's "${id}".`,
      });
    }
    const targeting = config.audienceTargeting;
    if (targeting.enabled && targeting.rules.trim() === '') {
      details.push({
        code: 'required',
        target: 'templateConfiguration.audienceTargeting.rules',
        message: 'Audience targeting is enabled but has no rule.',
      });
    } else if (targeting.rules.trim() !== '') {
      syntaxCheck(
        () => compileRule(targeting.rules),
        'templateConfiguration.audienceTargeting.rules',
        details,
      );
    }
    for (const name of CONVENTIONS) {
      const convention = input.newTeam[name];
      if (convention) syntaxCheck(() => compileConvention(convention), `newTeam.${name}`, details);
    }
    if (config.approval.requireApproval && config.approval.approvalTeam.length === 0) {
      details.push({
        code: 'required',
        target: 'templateConfiguration.approval.approvalTeam',
        message: 'A template that requires approval needs at least one approver.',
      });
    }
    const channels = new Set(['general', ...input.newTeam.channels.map((c) => c.displayName.toLowerCase())]);
    input.newTeam.tabs.forEach((tab, index) => {
      if (!channels.has(tab.channel.toLowerCase())) {
        details.push({
          code: 'unknownChannel',
          target: `newTeam.tabs[${index}].channel`,
          message: `The tab's channel "${tab.channel}" is neither General nor one of the template's channels.`,
        });
      }
    });
    if (config.sensitivityLabelId !== null) {
      const labels = await this.directory.allLabels();
      if (!labels.some((l) => l.id === config.sensitivityLabelId && l.isActive)) {
        details.push({
          code: 'unknownLabel',
          target: 'templateConfiguration.sensitivityLabelId',
          message: `No active sensitivity label "${config.sensitivityLabelId}".`,
        });
      }
    }
    const people = await Promise.allSettled([
      this.directory.resolveMembers(
        config.approval.approvalTeam,
        'templateConfiguration.approval.approvalTeam',
      ),
      this.directory.resolveMembers(
        config.permanentMembership.owners,
        'templateConfiguration.permanentMembership.owners',
      ),
      this.directory.resolveMembers(
        config.permanentMembership.members,
        'templateConfiguration.permanentMembership.members',
      ),
    ]);
    for (const result of people) {
      if (result.status === 'rejected') {
        if (!(result.reason instanceof ValidationFailed)) throw result.reason;
        details.push(...result.reason.details);
      }
    }
    if (details.length > 0) throw new ValidationFailed('The template is not valid.', details);
    const [approvalTeam, owners, members] = people.map(
      (r) => (r as PromiseFulfilledResult<PermanentMember[]>).value,
    );
    return {
      ...input,
      templateConfiguration: {
        id, // first, for readers of the JSON; the body's id (if any) equals it
        ...config,
        approval: { ...config.approval, approvalTeam: approvalTeam! },
        permanentMembership: { owners: owners!, members: members! },
      },
    };
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

function syntaxCheck(compile: () => unknown, target: string, details: ErrorDetail[]): void {
  try {
    compile();
  } catch (error) {
    if (!(error instanceof RuleSyntaxError)) throw error;
    details.push({
      code: 'syntaxError',
      target,
      message: `${error.message} (at position ${error.position})`,
    });
  }
}
