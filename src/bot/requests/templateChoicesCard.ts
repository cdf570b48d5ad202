import { renderCard, type AdaptiveCardAttachment } from '../cards/adaptiveCard';
import { clip, markdownText } from '../cards/cardText';
import { DEFAULT_READER, type Reader, say } from '../i18n/catalog';
import type { GalleryTemplate } from './galleryCard';
import templateChoicesCardTemplate from './templateChoicesCard.json';

/** Templates the card shows at most: the best few, the gallery holds the rest. */
export const TEMPLATE_CHOICES_SHOWN = 3;

/** What the card of templates that suit a purpose shows. */
export interface TemplateChoicesCardData {
  /** The person's words the templates fit ("client project"). */
  words: string;
  /** Best first; only the first {@link TEMPLATE_CHOICES_SHOWN} are shown. */
  templates: readonly GalleryTemplate[];
}

/**
 * The templates that suit what the person asked for, each with Request (the form for that
 * template), and Other templates (the gallery).
 */
export function renderTemplateChoicesCard(
  data: TemplateChoicesCardData,
  reader: Reader = DEFAULT_READER,
): AdaptiveCardAttachment {
  return renderCard('templateChoicesCard', templateChoicesCardTemplate, {
    templates: data.templates.slice(0, TEMPLATE_CHOICES_SHOWN).map((template) => ({
      id: template.id,
      name: clip(template.name, 120),
      description: clip(template.description, 300),
      needsApproval: template.needsApproval,
    })),
    labels: {
      fallback: say(reader, 'understood.templates.fallback'),
      title: data.words.trim()
        ? say(reader, 'understood.templates.title', { words: markdownText(clip(data.words.trim(), 80)) })
        : say(reader, 'understood.templates.titlePlain'),
      needsApproval: say(reader, 'gallery.needsApproval'),
      request: say(reader, 'understood.request'),
      otherTemplates: say(reader, 'action.otherTemplates'),
    },
  });
}
