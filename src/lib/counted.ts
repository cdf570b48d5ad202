/**
 * A number of things in English, with the noun's real plural: "1 owner", "2 owners", "0 members".
 * The API's log lines and messages are English; the bot says counts in each reader's language itself.
 */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${new Intl.PluralRules('en').select(count) === 'one' ? singular : plural}`;
}
