import { readFileSync } from 'node:fs';
import path from 'node:path';
// The one place this test names where the error list lives (the wire models' error codes).
import { DETAIL_CODES, ERROR_CODES } from '../../src/contract/errorCodes';
import { HttpError } from '../../src/api/errors';
import { ValidationFailed } from '../../src/domain/errors';

/**
 * docs/reference/errors.md lists exactly the error codes of the one list, in its order, with the
 * same status and meaning: a code added to the list and not described there fails this test, as
 * does a documented code the list no longer has.
 */

const PAGE = path.resolve(__dirname, '..', '..', 'docs', 'reference', 'errors.md');
const page = readFileSync(PAGE, 'utf8');

/** The rows `| status | `code` | when |` of the page's ApiError table. */
function documentedCodes(markdown: string): [string, { status: number; meaning: string }][] {
  return [...markdown.matchAll(/^\| (\d{3}) \| `([A-Za-z]+)` \| (.+) \|$/gm)].map((m) => [
    m[2]!,
    { status: Number(m[1]), meaning: m[3]! },
  ]);
}

/** The rows `| `code` | when |` of the page's `details` table. */
function documentedDetails(markdown: string): [string, string][] {
  return [...markdown.matchAll(/^\| `([A-Za-z_]+)` \| (.+) \|$/gm)].map((m) => [m[1]!, m[2]!]);
}

describe('the error codes reference', () => {
  test('lists every ApiError code of the list, once each, in its order, with its status and meaning', () => {
    expect(documentedCodes(page)).toEqual(Object.entries(ERROR_CODES));
  });

  test('lists every details code of the list, once each, in its order, with its meaning', () => {
    expect(documentedDetails(page)).toEqual(Object.entries(DETAIL_CODES));
  });

  test('an error of HTTP itself answers the status its code has in the list', () => {
    expect(new HttpError('payloadTooLarge', 'too large').status).toBe(413);
    expect(new HttpError('methodNotAllowed', 'no').status).toBe(405);
  });

  test('a code outside the list does not compile', () => {
    // Checked by the type-check (`tsc`), which fails when these lines stop being errors.
    // @ts-expect-error 'teapot' is not an ApiError code of the list
    expect(() => new HttpError('teapot', 'no')).toThrow();
    // @ts-expect-error 'misspelt' is not a details code of the list
    const detail = new ValidationFailed('bad', [{ code: 'misspelt', target: 'body', message: 'no' }]);
    expect(detail.details[0]!.code).toBe('misspelt');
  });
});
