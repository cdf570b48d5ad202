import { z } from 'zod';
import { model, multiLine } from './registry';
import { DiscoverySettings, FunSettings, GuestSettings, MemberSettings, MessagingSettings } from './teams';

/*
 * What a template lays out inside a team beyond its channels and tabs (docs/guides/templates.md, an extension of the
 * template model): each channel's folder tree and starter files, in the channel's files folder, and
 * the team's member, guest, messaging and fun settings. The limits are Steward's, chosen inside
 * SharePoint's own (a segment of 255 characters, a decoded path of 400) so that what a template
 * holds can always be written, and small enough that a template stays well under the API's 1 MiB
 * body.
 */

/** Folders one channel of a template may hold (ancestors a path implies included). */
export const MAX_CHANNEL_FOLDERS = 50;
/** Starter files one channel of a template may hold. */
export const MAX_CHANNEL_FILES = 10;
/** Levels of folders under the channel's files folder (`A/B/C/D/E`). */
export const MAX_FOLDER_DEPTH = 5;
/** Characters of one folder or file name. */
export const MAX_ITEM_NAME_LENGTH = 100;
/** Characters of a whole path under the channel's files folder. */
export const MAX_ITEM_PATH_LENGTH = 250;
/** Bytes (UTF-8) of one starter file's text. */
export const MAX_STARTER_FILE_BYTES = 32 * 1024;
/** Bytes (UTF-8) of all of a template's starter files together. */
export const MAX_TEMPLATE_FILE_BYTES = 256 * 1024;

/** Characters SharePoint and OneDrive refuse in a file or folder name. */
const FORBIDDEN_CHARACTERS = /["*:<>?/\\|]/;
/** Names SharePoint refuses whatever their case (`CON`, `LPT1`, `desktop.ini`, …). */
const FORBIDDEN_NAMES = /^(\.lock|con|prn|aux|nul|com\d|lpt\d|desktop\.ini)$/i;

/**
 * What is wrong with one segment of a path as a SharePoint name, or undefined when nothing is: no
 * `" * : < > ? / \ |`, none of SharePoint's reserved names, nothing starting with `~$` or holding
 * `_vti_`, no leading or trailing space, no trailing dot, no segment `.` or `..`.
 */
export function itemNameProblem(name: string): string | undefined {
  if (name.length === 0) return 'A folder or file name cannot be empty (no "//", no "/" at either end).';
  if (name.length > MAX_ITEM_NAME_LENGTH)
    return `"${name.slice(0, 20)}…" is longer than ${MAX_ITEM_NAME_LENGTH} characters.`;
  if (FORBIDDEN_CHARACTERS.test(name))
    return `"${name}" contains a character SharePoint refuses: " * : < > ? \\ |.`;
  if (name !== name.trim()) return `"${name}" starts or ends with a space.`;
  if (name.endsWith('.')) return `"${name}" ends with a dot.`;
  if (FORBIDDEN_NAMES.test(name)) return `"${name}" is a name SharePoint reserves.`;
  if (name.startsWith('~$') || name.toLowerCase().includes('_vti_'))
    return `"${name}" starts with "~$" or contains "_vti_", which SharePoint refuses.`;
  return undefined;
}

/** What is wrong with a path of folders (`Contracts/Signed`), or undefined. */
export function itemPathProblem(path: string): string | undefined {
  if (path.length > MAX_ITEM_PATH_LENGTH)
    return `The path is longer than ${MAX_ITEM_PATH_LENGTH} characters.`;
  const segments = path.split('/');
  if (segments.length > MAX_FOLDER_DEPTH)
    return `"${path}" is ${segments.length} levels deep; at most ${MAX_FOLDER_DEPTH} are allowed.`;
  for (const segment of segments) {
    const problem = itemNameProblem(segment);
    if (problem) return problem;
  }
  return undefined;
}

/** A path under a channel's files folder, `/` between its folders. */
const itemPath = z
  .string()
  .min(1)
  .max(MAX_ITEM_PATH_LENGTH)
  .superRefine((path, ctx) => {
    const problem = itemPathProblem(path);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const StarterFile = model(
  'TemplateStarterFile',
  z.strictObject({
    path: itemPath.describe(
      "Where the file goes under the channel's files folder (`Contracts/README.txt`); its folders are made first.",
    ),
    content: multiLine(z.string())
      .refine(
        (text) => utf8Bytes(text) <= MAX_STARTER_FILE_BYTES,
        `A starter file holds at most ${MAX_STARTER_FILE_BYTES / 1024} KiB of text.`,
      )
      .describe(`The file's text (UTF-8), at most ${MAX_STARTER_FILE_BYTES / 1024} KiB.`),
  }),
  "A text file put in a channel's files folder when the team is made (an extension); one already there is kept.",
);
export type StarterFile = z.output<typeof StarterFile>;

/** A channel's folders, as a template lists them. */
export const channelFolders = z
  .array(itemPath)
  .max(MAX_CHANNEL_FOLDERS)
  .describe(
    `Folders made in the channel's files folder (an extension): paths such as \`Contracts/Signed\`, at most ${MAX_FOLDER_DEPTH} levels and ${MAX_CHANNEL_FOLDERS} folders; a folder already there is kept.`,
  );

/** A channel's starter files, as a template lists them. */
export const channelFiles = z
  .array(StarterFile)
  .max(MAX_CHANNEL_FILES)
  .describe(`Starter text files of the channel (an extension), at most ${MAX_CHANNEL_FILES}.`);

/**
 * Every folder a channel's template asks for, parents before children, each once (case aside, as
 * SharePoint compares names): its `folders` and the folders its files' paths go through.
 */
export function foldersToMake(channel: {
  folders?: readonly string[];
  files?: readonly StarterFile[];
}): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const add = (path: string) => {
    const segments = path.split('/');
    for (let depth = 1; depth <= segments.length; depth++) {
      const prefix = segments.slice(0, depth).join('/');
      if (seen.has(prefix.toLowerCase())) continue;
      seen.add(prefix.toLowerCase());
      out.push(prefix);
    }
  };
  for (const folder of channel.folders ?? []) add(folder);
  for (const file of channel.files ?? []) {
    const parent = file.path.split('/').slice(0, -1).join('/');
    if (parent) add(parent);
  }
  return out;
}

/** A problem of a template's folders and files, with the field it is about. */
export interface TemplateItemProblem {
  target: string;
  message: string;
}

/**
 * What is wrong with a template's folders and files taken together (each path was checked by the
 * schema already): a channel's folders past the limit once its files' folders are counted, a file
 * listed twice or where a folder is, starter files heavier than the template's limit in all.
 */
export function templateItemProblems(newTeam: {
  channels: ReadonlyArray<{ folders?: readonly string[]; files?: readonly StarterFile[] }>;
}): TemplateItemProblem[] {
  const problems: TemplateItemProblem[] = [];
  let bytes = 0;
  newTeam.channels.forEach((channel, c) => {
    const at = `newTeam.channels[${c}]`;
    const folders = foldersToMake(channel);
    if (folders.length > MAX_CHANNEL_FOLDERS)
      problems.push({
        target: `${at}.folders`,
        message: `The channel's folders and its files' folders come to ${folders.length}; at most ${MAX_CHANNEL_FOLDERS} are allowed.`,
      });
    const folderNames = new Set(folders.map((f) => f.toLowerCase()));
    const fileNames = new Set<string>();
    (channel.files ?? []).forEach((file, f) => {
      const key = file.path.toLowerCase();
      const target = `${at}.files[${f}].path`;
      if (fileNames.has(key)) problems.push({ target, message: `The file "${file.path}" is listed twice.` });
      if (folderNames.has(key))
        problems.push({ target, message: `"${file.path}" is both a folder and a file.` });
      fileNames.add(key);
      bytes += utf8Bytes(file.content);
    });
  });
  if (bytes > MAX_TEMPLATE_FILE_BYTES)
    problems.push({
      target: 'newTeam.channels',
      message: `The template's starter files hold ${Math.ceil(bytes / 1024)} KiB of text; at most ${MAX_TEMPLATE_FILE_BYTES / 1024} KiB are allowed.`,
    });
  return problems;
}

/** The settings of a team a template may set: Graph's team resource's objects, by their names. */
export const TemplateTeamSettings = model(
  'TemplateTeamSettings',
  z.strictObject({
    memberSettings: MemberSettings.optional(),
    guestSettings: GuestSettings.optional(),
    messagingSettings: MessagingSettings.optional(),
    funSettings: FunSettings.optional(),
    discoverySettings: DiscoverySettings.optional().describe(
      'Whether people outside a private team find it in Teams search and suggestions and in the team ' +
        'directory (`showInTeamsSearchAndSuggestions`, an extension; Microsoft Graph beta `teamDiscoverySettings`). ' +
        'Private teams only (400 `discoveryOfPublicTeam`: a public team is always found). Default `true`, as ' +
        "Microsoft's New-Team documents.",
    ),
  }),
  "The team's member, guest, messaging, fun and discovery settings, as Microsoft Graph's team resource names them (an extension); what is left out keeps the platform's default.",
);
export type TemplateTeamSettings = z.output<typeof TemplateTeamSettings>;

/** The UTF-8 size of a text. */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}
