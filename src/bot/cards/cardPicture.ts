/** Longest picture URL a card carries; longer ones (typically inline data URIs) would eat the 28 KB budget. */
const MAX_PICTURE_URL_LENGTH = 1024;

/**
 * A template's picture as a card image URL: an http(s) URL of reasonable length, or '' (the card
 * then shows no picture) for anything else a catalog manager may have typed.
 */
export function cardPictureUrl(pictureUrl: string | null | undefined): string {
  const url = pictureUrl?.trim() ?? '';
  if (url.length === 0 || url.length > MAX_PICTURE_URL_LENGTH) return '';
  return /^https?:\/\/[^\s]+$/i.test(url) ? url : '';
}
