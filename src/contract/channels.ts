import { z } from 'zod';

/**
 * A channel's display name as Teams accepts it: 1 to 50 characters, none of `~ # % & * { } + / \ :
 * < > ? | ' "`. One rule for `POST /teams/{id}/channels` and for a template's channels (checked when
 * the template is saved), so a template can never name a channel Graph would refuse mid-provisioning.
 */
export const channelName = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .refine(
    (name) => !/[~#%&*{}+/\\:<>?|'"]/.test(name),
    'A channel name cannot contain ~ # % & * { } + / \\ : < > ? | \' "',
  );

/** An absolute http(s) URL: a tab never points at `javascript:`, `data:` or `file:`. */
const httpUrl = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const { protocol } = new URL(value);
      return protocol === 'http:' || protocol === 'https:';
    } catch {
      return false;
    }
  }, 'Expected an absolute http:// or https:// URL.');

/** A tab's configuration on input (a channel's tab, or a template's); its URLs are http(s) only. */
export const tabConfigurationInput = z.strictObject({
  entityId: z.string().max(256).nullable().optional(),
  contentUrl: httpUrl.nullable().optional(),
  websiteUrl: httpUrl.nullable().optional(),
  removeUrl: httpUrl.nullable().optional(),
});
