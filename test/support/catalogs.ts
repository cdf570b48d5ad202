import type { CatalogTemplates } from '../../src/contract';

/** The ids of a catalog's templates, sorted. */
export const templateIds = (catalog: CatalogTemplates) =>
  catalog.value.map((template) => template.templateConfiguration.id).sort();

/**
 * The demo's templates Alex is offered, sorted: the enabled ones for everyone, onboarding-buddy
 * through his "Onboarding 2026" group and department-marketing through his department.
 */
export const ALEX_TEMPLATES = [
  'client-engagement',
  'department-marketing',
  'onboarding-buddy',
  'onboarding-cohort',
  'partner-workspace',
  'project',
];
