import { z } from 'zod';
import { model } from './registry';

/** A metadata document, or a containment query: any JSON object. */
export const MetadataDocument = z
  .record(z.string(), z.unknown())
  .describe('A JSON object (at most 64 KiB as JSON, nesting at most 32 levels).');

export const MetadataQueryResult = model(
  'MetadataQueryResult',
  z.object({ artefact_type: z.literal('MicrosoftTeamsTeam'), artefact_id: z.string() }),
  'A team whose metadata contains the query.',
);
export type MetadataQueryResult = z.output<typeof MetadataQueryResult>;
