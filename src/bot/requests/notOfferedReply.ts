import type { CatalogTemplate } from '../../client';
import { clip } from '../cards/cardText';
import { type Reader, say } from '../i18n/catalog';
import type { Reply } from '../conversations/reply';
import { notOfferedWhy, templateNamed } from '../understanding/answerParts';
import type { NotOffered } from '../understanding/types';
import { galleryOf } from './requestTeam';

/**
 * The answer to a request for a template the person may not use: that it is not offered to them,
 * who the catalog offers it to, and what they can do instead (one of their templates that fits,
 * or any of theirs, in the gallery below; or ask their catalog manager).
 */
export function notOfferedReply(
  mine: readonly CatalogTemplate[],
  reader: Reader,
  asked: NotOffered,
  fits?: CatalogTemplate,
): Reply {
  return galleryOf(mine, 0, reader, false, notOfferedText(reader, asked, fits));
}

/** What `notOfferedReply` says above the gallery: not offered, to whom it is, what to do instead. */
export function notOfferedText(reader: Reader, asked: NotOffered, fits?: CatalogTemplate): string {
  const why = notOfferedWhy(reader, asked);
  const template = say(reader, 'quoted', { text: clip(asked.name, 120) });
  const instead = fits
    ? say(reader, 'understood.unavailable.other', { other: templateNamed(reader, fits), template })
    : say(reader, 'understood.unavailable.instead');
  return `${why} ${instead}`;
}
