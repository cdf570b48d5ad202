import { DEFAULT_LIFECYCLE_POLICY, resolveLifecyclePolicy } from '../../domain/lifecycle/policy';
import { LifecyclePolicy } from '../../contract/lifecycle';
import type { LifecycleRepository } from '../../store/lifecycle/lifecycle';
import type { TemplateRepository } from '../../store/catalog/templates';

/** The policy that governs one team, where it comes from, and the permanent owners it must keep. */
export interface TeamPolicy {
  policy: LifecyclePolicy;
  source: 'template' | 'tenant';
  templateId: string | null;
  permanentOwnerIds: string[];
}

/** What a template says about lifecycle, read once per evaluation. */
interface TemplateLifecycle {
  policy: LifecyclePolicy | undefined;
  permanentOwnerIds: string[];
}

/**
 * Resolves teams' policies: a team Steward provisioned follows its template's policy (and keeps its
 * template's permanent owners), every other team the tenant default. Templates are read once each
 * for the life of the resolver (one evaluation), so a page of teams costs one query for their
 * templates' ids.
 */
export class PolicyResolver {
  private readonly templates = new Map<string, Promise<TemplateLifecycle | undefined>>();

  constructor(
    private readonly deps: { store: LifecycleRepository; templates: TemplateRepository },
    private readonly tenant: LifecyclePolicy,
  ) {}

  /** Reads the tenant default, then resolves with it. */
  static async create(deps: {
    store: LifecycleRepository;
    templates: TemplateRepository;
  }): Promise<PolicyResolver> {
    return new PolicyResolver(deps, await tenantPolicy(deps.store));
  }

  async forTeams(teamIds: readonly string[]): Promise<Map<string, TeamPolicy>> {
    const templateIds = await this.deps.store.templatesOf(teamIds);
    const resolved = new Map<string, TeamPolicy>();
    for (const teamId of teamIds) {
      const templateId = templateIds.get(teamId) ?? null;
      const template = templateId === null ? undefined : await this.template(templateId);
      const { policy, source } = resolveLifecyclePolicy(template?.policy, this.tenant);
      resolved.set(teamId, {
        policy,
        source,
        templateId,
        permanentOwnerIds: template?.permanentOwnerIds ?? [],
      });
    }
    return resolved;
  }

  private template(id: string): Promise<TemplateLifecycle | undefined> {
    let found = this.templates.get(id);
    if (!found) {
      found = this.deps.templates.get(id).then((stored) =>
        stored
          ? {
              policy: stored.template.templateConfiguration.lifecycle,
              permanentOwnerIds: stored.template.templateConfiguration.permanentMembership.owners.map(
                (o) => o.id,
              ),
            }
          : undefined,
      );
      this.templates.set(id, found);
    }
    return found;
  }
}

/** The tenant's default policy: the stored one, or the built-in default before governance set one. */
export async function tenantPolicy(store: LifecycleRepository): Promise<LifecyclePolicy> {
  const stored = await store.tenantPolicy();
  if (stored === undefined) return DEFAULT_LIFECYCLE_POLICY;
  const parsed = LifecyclePolicy.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_LIFECYCLE_POLICY;
}
