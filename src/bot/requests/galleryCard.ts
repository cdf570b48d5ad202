import type { CatalogTemplate } from '../../client';
import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { cardPictureUrl } from '../cards/cardPicture';
import { clip } from '../cards/cardText';
import { DEFAULT_READER, numberFor, type Reader, say } from '../i18n/catalog';
import { templateTexts } from '../shared/templateTexts';
import galleryCardTemplate from './galleryCard.json';

/** Templates per gallery page: enough to choose from, few enough for the 28 KB limit with long texts. */
export const GALLERY_PAGE_SIZE = 5;

/** One template as the gallery shows it. */
export interface GalleryTemplate {
  id: string;
  name: string;
  description: string;
  /** An http(s) image URL, or '' for none. */
  pictureUrl: string;
  needsApproval: boolean;
}

/** What the gallery card shows: all the caller's templates and the page to show. */
export interface GalleryCardData {
  templates: readonly GalleryTemplate[];
  /** Zero-based; clamped to the pages there are. */
  page: number;
  /** A sentence above the templates (e.g. why a typed request shows the gallery), or none. */
  note?: string;
}

/**
 * A catalog template as a gallery entry, in the reader's language where the template has it; null
 * for one without an id (it could not be picked).
 */
export function galleryTemplate(
  template: CatalogTemplate,
  reader: Pick<Reader, 'language' | 'locale'> = DEFAULT_READER,
): GalleryTemplate | null {
  const config = template.templateConfiguration;
  if (!config.id) return null;
  return {
    id: config.id,
    ...templateTexts(config, reader),
    pictureUrl: config.pictureUrl ?? '',
    needsApproval: config.approval.requireApproval,
  };
}

/** The gallery card for `templates` (from `GET /me/catalog/templates`), one page at a time with a "More" button. */
export function renderGalleryCard(
  data: GalleryCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  const total = data.templates.length;
  const pageCount = Math.max(1, Math.ceil(total / GALLERY_PAGE_SIZE));
  const page = Math.min(Math.max(0, Math.trunc(data.page) || 0), pageCount - 1);
  const shown = data.templates.slice(page * GALLERY_PAGE_SIZE, (page + 1) * GALLERY_PAGE_SIZE);
  return renderCard('galleryCard', galleryCardTemplate, {
    total,
    page,
    pageCount,
    note: clip(data.note ?? '', 400),
    templates: shown.map((t) => ({
      id: t.id,
      name: clip(t.name, 120),
      description: clip(t.description, 300),
      pictureUrl: cardPictureUrl(t.pictureUrl),
      needsApproval: t.needsApproval,
    })),
    labels: {
      fallback: say(reader, 'gallery.fallback'),
      title: say(reader, 'gallery.title'),
      empty: say(reader, 'gallery.empty'),
      needsApproval: say(reader, 'gallery.needsApproval'),
      choose: say(reader, 'action.choose'),
      page: say(reader, 'gallery.page', {
        page: numberFor(reader, page + 1),
        pages: numberFor(reader, pageCount),
        total: numberFor(reader, total),
      }),
      previous: say(reader, 'action.previous'),
      more: say(reader, 'action.more'),
    },
  });
}
