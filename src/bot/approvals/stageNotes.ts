import { dateTimeFor, type Reader, say } from '../i18n/catalog';
import { clip } from '../cards/cardText';

/**
 * A line an approver's card shows about a staged approval, kept as facts rather than words: one
 * record serves every approver of a stage, each reading it in their own language.
 */
export type StageNote =
  | { kind: 'stage'; number: number; count: number; stage: string }
  | { kind: 'earlier'; stage: string; name: string; comment: string | null }
  | { kind: 'escalatedLate'; stage: string; hours: number }
  | { kind: 'escalatedEmpty'; stage: string }
  | { kind: 'reminder'; since: string };

/** A note in `reader`'s words; a plain string is a note an earlier version of the bot stored as written. */
export function stageNoteText(note: StageNote | string, reader: Reader): string {
  if (typeof note === 'string') return note;
  switch (note.kind) {
    case 'stage':
      return say(reader, 'approval.stage', { number: note.number, count: note.count, stage: note.stage });
    case 'earlier': {
      const name = note.name || say(reader, 'approval.anApprover');
      const line = say(reader, 'approval.earlierStage', { stage: note.stage, name });
      // French sets a colon off with a space.
      const colon = reader.language === 'fr' ? ' :' : ':';
      return note.comment
        ? `${line}${colon} ${say(reader, 'quoted', { text: clip(note.comment, 400) })}`
        : line;
    }
    case 'escalatedLate':
      return say(reader, 'approval.escalatedLate', { stage: note.stage, hours: note.hours });
    case 'escalatedEmpty':
      return say(reader, 'approval.escalatedEmpty', { stage: note.stage });
    case 'reminder':
      return say(reader, 'approval.reminder', { when: dateTimeFor(reader, note.since) });
  }
}
