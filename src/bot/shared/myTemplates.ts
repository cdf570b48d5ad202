import type { CatalogTemplate, StewardClient } from '../../client';

/** Templates the gallery reads at most (pages of the API followed one by one). */
const MAX_GALLERY_TEMPLATES = 200;

/**
 * The templates offered to the caller, after audience targeting (`GET /me/catalog/templates`, its
 * pages followed), those without an id left out: what the gallery shows and a typed request picks from.
 * Team templates only: Steward cannot provision the other workspace types yet (a request for one
 * is refused, docs/guides/templates.md), so the chat offers none of them.
 */
export async function myTemplates(api: StewardClient): Promise<CatalogTemplate[]> {
  const templates: CatalogTemplate[] = [];
  for await (const template of api.followNextLinks(await api.getMyCatalogTemplates())) {
    const { id, workspaceType = 'team' } = template.templateConfiguration;
    if (id && workspaceType === 'team') templates.push(template);
    if (templates.length >= MAX_GALLERY_TEMPLATES) break;
  }
  return templates;
}
