import type { TEAM_NAME_MAX_LENGTH as WIRE_TEAM_NAME_MAX_LENGTH } from '../contract';

/**
 * The longest team name the API accepts (Microsoft Graph's limit on a group's `displayName`). The
 * client carries no values of the server: the type is the wire's literal, so the compiler refuses
 * a value that differs from it.
 */
export const TEAM_NAME_MAX_LENGTH: typeof WIRE_TEAM_NAME_MAX_LENGTH = 256;
