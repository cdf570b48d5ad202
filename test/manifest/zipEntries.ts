/** The entries of an app package: the product's own reader (`src/lib/zip.ts`), which checks each CRC. */
export { zipEntries } from '../../src/lib/zip';
