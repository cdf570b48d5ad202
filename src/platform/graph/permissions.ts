/**
 * The Microsoft Graph application permissions Steward's identity needs, once: `npm run admin --
 * grant-permissions` grants exactly these, and the table of docs/guides/deploying.md (section 5)
 * says what each is for (test/platform/graph/permissions.test.ts checks they agree).
 */

/** Microsoft Graph's application id, the same in every tenant and cloud (its service principal's `appId`). */
export const MICROSOFT_GRAPH_APP_ID = '00000003-0000-0000-c000-000000000000';

export const GRAPH_APPLICATION_PERMISSIONS = [
  'Team.Create',
  'Group.ReadWrite.All',
  'TeamSettings.ReadWrite.All',
  'TeamMember.ReadWrite.All',
  'Channel.Create',
  'Channel.ReadBasic.All',
  'Files.ReadWrite.All',
  'TeamsTab.ReadWrite.All',
  'Tasks.ReadWrite.All',
  'TeamworkTag.ReadWrite.All',
  'TeamsAppInstallation.ReadWriteForTeam.All',
  'TeamsAppInstallation.ReadWriteSelfForTeam.All',
  'AppCatalog.Read.All',
  'User.Read.All',
  'GroupMember.Read.All',
  'SensitivityLabels.Read.All',
  'Reports.Read.All',
  'Application.Read.All',
] as const;

export type GraphApplicationPermission = (typeof GRAPH_APPLICATION_PERMISSIONS)[number];
