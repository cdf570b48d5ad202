/**
 * Every error code of the API, defined once: the ApiError `code` of each failed answer with its
 * HTTP status, and the `code` of each `details` entry of a `validationFailed` answer. The server's
 * errors take only these codes (a code not listed here does not compile), the client reads them,
 * and docs/reference/errors.md lists exactly these (test/docs/errors.test.ts compares them).
 */

/** One ApiError code: the status it answers with and when it is given. */
export interface ErrorCodeEntry {
  readonly status: number;
  readonly meaning: string;
}

/** The ApiError codes (`error.code`), in the order the reference lists them (by status). */
export const ERROR_CODES = {
  validationFailed: {
    status: 400,
    meaning:
      'malformed JSON, wrong types, unknown fields or enum values, broken rules; `details` name each field',
  },
  unauthorized: {
    status: 401,
    meaning: 'no token, or one that is expired, forged, for another tenant, issuer or audience',
  },
  forbidden: { status: 403, meaning: 'the caller lacks the role or relationship the operation needs' },
  selfApprovalNotAllowed: {
    status: 403,
    meaning: 'a requester deciding their own request (see `approval.allowSelfApproval`)',
  },
  notFound: { status: 404, meaning: 'no such resource or route, or the caller may not see it' },
  methodNotAllowed: {
    status: 405,
    meaning: 'the path exists, the method does not (`Allow` lists the ones that do)',
  },
  requestTimeout: {
    status: 408,
    meaning:
      "the request's body did not arrive within 10 seconds (`STEWARD_BODY_TIMEOUT_MS`); the connection is closed",
  },
  conflict: { status: 409, meaning: "the resource's state does not allow the operation" },
  alreadyUnderWay: {
    status: 409,
    meaning:
      'the same kind of change is under way for the team (an unarchive while an archive runs, other drift differences while a drift job runs); ask again once its job ends',
  },
  delegationUnavailable: {
    status: 409,
    meaning:
      "something needs a person's own Microsoft Graph authority (a sensitivity label) and none can be had for them",
  },
  payloadTooLarge: { status: 413, meaning: 'a body over 1 MiB' },
  unsupportedMediaType: { status: 415, meaning: 'a body that is not `application/json`' },
  idempotencyKeyReused: {
    status: 422,
    meaning: 'an `Idempotency-Key` sent again with a different body',
  },
  tooManyRequests: {
    status: 429,
    meaning: 'over the rate limit, or too many refused calls from one source; see `Retry-After`',
  },
  internalServerError: { status: 500, meaning: 'a bug: quote the request id' },
  jobCannotRun: {
    status: 500,
    meaning:
      "a job's data or template asks for something impossible; a job fails with it, and a request that met it is a bug",
  },
  deliveryFailed: {
    status: 500,
    meaning:
      'a webhook delivery attempt failed; it goes to the delivery log, and a request that met it is a bug',
  },
  platformError: {
    status: 502,
    meaning: 'the collaboration platform (Microsoft Graph) refused the request',
  },
  badGateway: {
    status: 502,
    meaning: 'in a multi-process deployment, no process of the role the path needs is ready or answered',
  },
  serviceUnavailable: {
    status: 503,
    meaning: 'the store or the platform is unavailable for now (`Retry-After` says how long)',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

/** An ApiError code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The codes of `details` entries, each naming the field in its `target`. The first group are the
 * request schema's own checks (zod's issue codes, passed through); the rest are Steward's rules.
 */
export const DETAIL_CODES = {
  invalid_type: 'a value of the wrong type, or a required one missing (the request schema)',
  invalid_value: 'a value outside its enumeration or literal (the request schema)',
  invalid_format: 'a string not in its format: a pattern, e-mail, URL, date-time, GUID (the request schema)',
  invalid_union: 'a value matching none of the shapes allowed (the request schema)',
  invalid_key: 'a map key that is not valid (the request schema)',
  invalid_element: 'a map or set element that is not valid (the request schema)',
  too_small: 'a number, string or list below its minimum (the request schema)',
  too_big: 'a number, string or list over its maximum (the request schema)',
  not_multiple_of: 'a number that is not a multiple of its step (the request schema)',
  unrecognized_keys: 'fields the operation does not know (the request schema)',
  custom: 'a field-level rule of the request schema',
  malformedJson: 'a body that is not JSON',
  nestingTooDeep: 'JSON nested deeper than 64 levels, refused before it is parsed',
  forbiddenKey: 'an object key `__proto__`, which would be dropped or change the object',
  controlCharacter:
    'a string or key holds a control character (tab and line breaks are allowed only in multi-line fields, marked `x-multiLine` in the OpenAPI document)',
  malformedText: 'a string holds a lone surrogate: not well-formed Unicode',
  formatCharacter:
    'a string or key holds a format character that changes how text reads: a bidirectional mark, embedding, override or isolate (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), a deprecated shaping control (U+206A–U+206F) or an interlinear annotation (U+FFF9–U+FFFB); joiners, tags and soft hyphens stay allowed',
  invalidValue:
    "a value a rule refuses: a metadata value, an `X-Steward-On-Behalf-Of` header, a group template's hidden membership with a public privacy",
  tooLarge: 'a metadata document over its size limit',
  readOnly:
    "a field that cannot be changed, sent with another value: a team's, or a template's `workspaceType` once a team was requested from it",
  idMismatch: "a template's body id differs from the path's",
  required: 'a field the rest of the template makes necessary (audience rules, an approval team)',
  unknownChannel: 'a tab or plan placed in a channel the template does not have',
  duplicate:
    'a template names two things alike where Teams or a resumed job tells them apart by name: two channels whose names differ only in case, two buckets, tasks of a bucket or tags of one name, an app twice',
  duplicateStage: 'two approval stages of one name',
  discoveryOfPublicTeam:
    'a template sets `newTeam.settings.discoverySettings` for a public team, which is always found in search and suggestions',
  notForWorkspaceType:
    "a template field that does not apply to the template's `workspaceType` (channels on a community, a site design on a team)",
  invalidFiles: "a template's files that cannot be placed (their paths or sizes)",
  unknownLabel: 'no active sensitivity label of that id',
  escalationTeamRequired: 'with Microsoft Graph, an approval policy that escalates names no `escalationTeam`',
  syntaxError: 'an audience rule or naming convention that does not parse (with its position)',
  noticeAfterCreation: 'a renewal notice that would come before the team exists',
  duplicateNotice: 'a renewal notice listed twice',
  unknownUser: 'no user of that id in the directory',
  tooFewOwners: 'fewer owners than the template needs',
  tooFewMembers: 'fewer members than the template needs',
  singletonUsed: 'a template that allows one team, which exists',
  workspaceTypeNotProvisionable:
    'a request from a template whose workspace type Steward cannot provision yet (every type but `team`); nothing is created',
  conventionFailed: "the template's naming convention failed on the request",
  invalidName: 'a team name the naming rules refuse',
  approvalRuleFailed: 'an approval stage could not choose its approvers',
  noOtherApprover: 'the only approver is the requester, who may not approve',
  emptyApprovalStage: 'an approval stage with nobody to decide and no escalation team',
  approverMismatch: 'a decision sent for someone other than the caller',
  unknownDifference: 'a drift difference the team does not have (any more)',
  notApplicable: 'a drift difference Steward cannot apply',
  notAGuest: 'someone to remove who is not a guest of the team',
  invalidSkipToken: 'a `$skiptoken` that is not the previous page’s',
  unknownParameter: 'a query parameter the report does not take',
  invalidRange: 'a `from` after its `to`',
  invalidUrl: 'a webhook URL that is not an absolute URL, is too long, or whose host does not resolve',
  unsupportedScheme: 'a webhook URL of a scheme other than https or http',
  credentialsInUrl: 'a webhook URL with a user name or password in it',
  insecureScheme:
    'a webhook URL over plain http (allowed only to a loopback host, where the deployment allows it)',
  forbiddenAddress: 'a webhook URL whose host is, or resolves to, an address that is not public',
} as const satisfies Record<string, string>;

/** The code of a `details` entry. */
export type DetailCode = keyof typeof DETAIL_CODES;

/** True when `code` is an ApiError code of this list. */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.hasOwn(ERROR_CODES, code);
}
