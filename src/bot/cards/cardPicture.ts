/**
 * Longest picture URL a card carries (the catalog's own limit). Five gallery entries at this length
 * still leave room under the 28 KB card limit.
 */
const MAX_PICTURE_URL_LENGTH = 2048;

/**
 * A template's picture as a card image URL: an http(s) URL, or an inline `data:image/…;base64`
 * URI (the demo catalog's badges), of reasonable length; '' (the card then shows no picture) for
 * anything else a catalog manager may have typed.
 */
export function cardPictureUrl(pictureUrl: string | null | undefined): string {
  const url = pictureUrl?.trim() ?? '';
  if (url.length === 0 || url.length > MAX_PICTURE_URL_LENGTH) return '';
  return /^(https?:\/\/|data:image\/[a-z0-9.+-]+;base64,)[^\s]+$/i.test(url) ? url : '';
}
