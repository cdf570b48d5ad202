import { seedTemplates } from '../../../src/store/seed/templates';
import { seedUsers } from '../../../src/store/seed/directory';
import type { LabelledMessage } from '../../../src/bot/understanding/measure';
import type { DirectoryPerson, TemplateChoice } from '../../../src/bot/understanding/types';
import labelled from './messages.json';

/** The demo catalog's enabled templates as the engine reads them. */
export const TEMPLATES: readonly TemplateChoice[] = seedTemplates.flatMap(({ templateConfiguration: t }) =>
  t.id && t.enabled !== false ? [{ id: t.id, name: t.name, description: t.description ?? '' }] : [],
);

/** The demo directory as the bot gets it from `GET /users`. */
export const DIRECTORY: readonly DirectoryPerson[] = seedUsers.map((user) => ({
  id: user.id,
  displayName: user.displayName,
  mail: user.mail ?? null,
}));

export const MESSAGES = labelled.messages as LabelledMessage[];
