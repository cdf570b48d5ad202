/**
 * Pictures the cards draw states with, as inline SVG images: an image carries its text equivalent
 * (`altText`), which a screen reader reads in place of the picture, where characters such as ■ or
 * an emoji are spelled out one by one ("black square, black square…", "check mark button").
 */
import type { StepStatus } from '../../client';

/** An SVG as a card image URL. */
const svgUrl = (svg: string): string => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

/** Colours readable on the light, dark and high-contrast themes' card backgrounds. */
const GREEN = '#13a10e';
const RED = '#d13438';
const BLUE = '#4f6bed';
const GREY = '#8a8886';

/** A 16-pixel round badge with `mark` drawn on it in white. */
const badge = (fill: string, mark: string): string =>
  svgUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">` +
      `<circle cx="8" cy="8" r="7.5" fill="${fill}"/>${mark}</svg>`,
  );

const WHITE_LINE = 'stroke="#fff" stroke-width="2" stroke-linecap="round" fill="none"';

/** Each step state's picture: a tick, a clock, an empty ring, a cross, a dash, a bar. */
export const STEP_ICONS: Readonly<Record<StepStatus, string>> = {
  done: badge(GREEN, `<path d="M4.5 8.2l2.3 2.3 4.7-4.9" ${WHITE_LINE}/>`),
  running: badge(BLUE, `<path d="M8 4.5V8l2.5 1.6" ${WHITE_LINE}/>`),
  pending: svgUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16" viewBox="0 0 16 16">` +
      `<circle cx="8" cy="8" r="6.5" fill="none" stroke="${GREY}" stroke-width="2"/></svg>`,
  ),
  failed: badge(RED, `<path d="M5.5 5.5l5 5M10.5 5.5l-5 5" ${WHITE_LINE}/>`),
  skipped: badge(GREY, `<path d="M5 8h6" ${WHITE_LINE}/>`),
  rejected: badge(RED, `<path d="M4.5 8h7" ${WHITE_LINE}/>`),
};

/** Width of the progress bar's picture, in pixels (the card scales it to its column). */
const BAR_WIDTH = 200;

/** The progress bar as a picture: `progress` % filled (green, or red for a failure), the rest grey. */
export function progressBarImage(progress: number, failed: boolean): string {
  const filled = Math.round((Math.min(100, Math.max(0, progress)) / 100) * BAR_WIDTH);
  return svgUrl(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BAR_WIDTH}" height="8" viewBox="0 0 ${BAR_WIDTH} 8">` +
      `<rect width="${BAR_WIDTH}" height="8" rx="4" fill="${GREY}" fill-opacity="0.35"/>` +
      (filled > 0 ? `<rect width="${filled}" height="8" rx="4" fill="${failed ? RED : GREEN}"/>` : '') +
      `</svg>`,
  );
}
