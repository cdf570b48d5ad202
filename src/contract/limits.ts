/**
 * Limits of the API's text fields that clients check too (the bot's forms). Plain values with no
 * dependency, so a client loads them without the server's schemas.
 */

/**
 * The longest team name: a team's name is its Microsoft 365 group's `displayName`, which Microsoft
 * Graph limits to 256 characters (the group resource: "displayName … Maximum length is 256
 * characters"). Every name Steward makes is held to it: a request, a naming convention's output,
 * an approver's amendment, a rename, a clone.
 */
export const TEAM_NAME_MAX_LENGTH = 256;
