import type { Activity } from 'botbuilder';

/**
 * Every C0 control, DEL and C1, and a surrogate standing alone (text that is not well-formed
 * Unicode): none belongs in an id or a name, PostgreSQL refuses U+0000 in text, and a Bot Connector
 * URL built from an id holding one fails, so the reply to the activity would be lost without a word.
 */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\ud800-\udfff]/u;

/**
 * The fields of an activity the bot keeps (conversation references, people's records) or echoes
 * (in the Bot Connector's URLs and in its replies), each one line of text.
 */
const ONE_LINE_FIELDS: ReadonlyArray<readonly string[]> = [
  ['id'],
  ['replyToId'],
  ['channelId'],
  ['serviceUrl'],
  ['locale'],
  ['localTimezone'],
  ['conversation', 'id'],
  ['conversation', 'tenantId'],
  ['conversation', 'name'],
  ['from', 'id'],
  ['from', 'aadObjectId'],
  ['from', 'name'],
  ['recipient', 'id'],
  ['recipient', 'aadObjectId'],
  ['recipient', 'name'],
  ['channelData', 'tenant', 'id'],
];

const at = (value: unknown, path: readonly string[]): unknown =>
  path.reduce<unknown>(
    (node, key) =>
      node && typeof node === 'object' && Object.hasOwn(node, key)
        ? (node as Record<string, unknown>)[key]
        : undefined,
    value,
  );

/** Why the bot refuses `value` as an activity (a sentence for the 400's message), or undefined. */
export function activityProblem(value: unknown): string | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    return 'The body is not a Bot Framework activity.';
  const activity = value as Partial<Activity>;
  if (
    typeof activity.type !== 'string' ||
    activity.type === '' ||
    typeof activity.serviceUrl !== 'string' ||
    typeof activity.conversation?.id !== 'string' ||
    typeof activity.from?.id !== 'string'
  )
    return 'The body is not a Bot Framework activity.';
  for (const path of ONE_LINE_FIELDS) {
    const field = at(value, path);
    if (field !== undefined && field !== null && typeof field !== 'string')
      return `The activity's ${path.join('.')} is not text.`;
    if (typeof field === 'string' && CONTROL.test(field))
      return `The activity's ${path.join('.')} holds a control character.`;
  }
  return undefined;
}
