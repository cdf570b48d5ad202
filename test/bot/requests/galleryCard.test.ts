import {
  GALLERY_PAGE_SIZE,
  galleryTemplate,
  renderGalleryCard,
  type GalleryTemplate,
} from '../../../src/bot/requests/galleryCard';
import { cardJson, executeActions, expectValidCard, findAll } from '../cards/cardAssertions';
import { catalog } from '../cards/sampleData';

const demoGallery = catalog
  .map((template) => galleryTemplate(template))
  .filter((t): t is GalleryTemplate => t !== null);

/** `count` templates with every text at its catalog maximum, in multi-byte characters. */
function longTemplates(count: number): GalleryTemplate[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `template-${i}`,
    name: `Ŧęmpłátë ${i} `.padEnd(256, '🚀'),
    description: 'Ðéşçřïþţïøñ 🚀 '.repeat(80).slice(0, 1024),
    pictureUrl: `https://contoso.example/pictures/${'p'.repeat(2000)}/${i}.png`,
    needsApproval: i % 2 === 0,
  }));
}

describe('gallery card', () => {
  it('shows each template with its picture, name, description and approval badge', () => {
    const card = renderGalleryCard({ templates: demoGallery, page: 0 });
    expectValidCard(card);
    const json = cardJson(card);
    for (const t of demoGallery.slice(0, GALLERY_PAGE_SIZE)) {
      expect(json).toContain(JSON.stringify(t.name));
      if (t.pictureUrl) expect(json).toContain(t.pictureUrl);
    }
    const needsApproval = demoGallery.slice(0, GALLERY_PAGE_SIZE).filter((t) => t.needsApproval).length;
    expect(needsApproval).toBeGreaterThan(0);
    expect(json.split('"Needs approval"').length - 1).toBe(needsApproval);
    const images = findAll(card.content, 'Image').map((image) => image.url);
    expect(images).toContain(demoGallery.find((t) => t.id === 'client-engagement')?.pictureUrl);
  });

  it('picks a template with Action.Execute pickTemplate carrying its id', () => {
    const card = renderGalleryCard({ templates: demoGallery, page: 0 });
    const picks = executeActions(card, 'pickTemplate');
    expect(picks.map((action) => action.data)).toEqual(
      demoGallery.slice(0, GALLERY_PAGE_SIZE).map((t) => ({ templateId: t.id })),
    );
  });

  it('pages long catalogs: "More" carries the next page index, the last page has none', () => {
    const fifty = longTemplates(50);
    const pages = Math.ceil(50 / GALLERY_PAGE_SIZE);
    for (let page = 0; page < pages; page++) {
      const card = renderGalleryCard({ templates: fifty, page });
      expectValidCard(card);
      expect(executeActions(card, 'pickTemplate')).toHaveLength(GALLERY_PAGE_SIZE);
      const more = findAll(card.content, 'Action.Execute').filter((action) => action.title === 'More');
      if (page < pages - 1)
        expect(more).toEqual([expect.objectContaining({ verb: 'showTemplates', data: { page: page + 1 } })]);
      else expect(more).toEqual([]);
      expect(cardJson(card)).toContain(`Page ${page + 1} of ${pages}`);
    }
  });

  it('clamps a page beyond the end to the last page', () => {
    const card = renderGalleryCard({ templates: longTemplates(12), page: 99 });
    expect(executeActions(card, 'pickTemplate').map((a) => a.data)).toEqual([
      { templateId: 'template-10' },
      { templateId: 'template-11' },
    ]);
  });

  it('says so when no template is available, without paging buttons', () => {
    const card = renderGalleryCard({ templates: [], page: 0 });
    expectValidCard(card);
    expect(cardJson(card)).toContain('No template is available to you yet');
    expect(executeActions(card, 'showTemplates')).toEqual([]);
  });

  it('drops pictures that are not image URLs instead of sending them to Teams', () => {
    const [first] = longTemplates(1);
    const card = renderGalleryCard({
      templates: [{ ...first!, pictureUrl: 'javascript:alert(1)' }],
      page: 0,
    });
    expectValidCard(card);
    expect(findAll(card.content, 'Image')).toEqual([]);
  });
});
