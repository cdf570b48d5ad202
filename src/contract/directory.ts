import { z } from 'zod';
import { model, odataCollection } from './registry';

const text = z.string().nullable();

export const User = model(
  'User_1',
  z.object({
    id: z.string(),
    displayName: z.string(),
    givenName: text,
    surname: text,
    mail: text,
    userPrincipalName: z.string(),
    jobTitle: text,
    department: text,
    companyName: text,
    country: text,
    city: text,
    usageLocation: text,
    preferredLanguage: text,
  }),
  'A person of the directory.',
);
export type User = z.infer<typeof User>;

export const Users = model('Users', odataCollection(User));
export type Users = z.infer<typeof Users>;

export const Label = model(
  'Label',
  z.object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    color: z.string(),
    sensitivity: z.number().int(),
    tooltip: z.string(),
    isActive: z.boolean(),
    parent: z.string().nullable().describe("The parent label's id, or null for a top-level label."),
    fullName: z
      .string()
      .optional()
      .describe(
        'The label as people see it, under its parent: "Confidential / All Employees" (an extension).',
      ),
  }),
  'A sensitivity label.',
);
export type Label = z.infer<typeof Label>;

export const Labels = model('Labels', odataCollection(Label));
export type Labels = z.infer<typeof Labels>;
