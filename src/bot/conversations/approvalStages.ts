import type { Job } from '../../client';
import type { ApprovalRecord } from '../botState';
import { dateTimeFor, DEFAULT_READER, type Reader, say } from '../i18n/catalog';

type Json = Record<string, unknown>;

/** A stage of a job's approval, as the job shows it (`data.approval.stages[]`), read defensively. */
export interface StageView {
  id: string;
  name: string;
  number: number;
  count: number;
  status: string;
  approvers: Array<{ id: string; name: string }>;
  decider: { id: string; name: string } | null;
  comment: string | null;
  time: string | null;
  escalated: string | null;
  remindedAt: string | null;
}

const object = (value: unknown): Json =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const person = (value: unknown) => {
  const item = object(value);
  return { id: text(item.id), name: text(item.name) || text(item.displayName) || text(item.id) };
};

/** Every stage of a job's approval, in order; empty for a job without stages. */
export function stagesOf(job: Job): StageView[] {
  const list = object(job.data).approval;
  const stages = object(list).stages;
  if (!Array.isArray(stages)) return [];
  return stages.map((raw, index) => {
    const stage = object(raw);
    const decider = stage.decider ? person(stage.decider) : null;
    return {
      id: text(stage.id),
      name: text(stage.name),
      number: index + 1,
      count: stages.length,
      status: text(stage.status),
      approvers: (Array.isArray(stage.approvers) ? stage.approvers : []).map(person).filter((p) => p.id),
      decider: decider?.id ? decider : null,
      comment: text(stage.comment) || null,
      time: text(stage.time) || null,
      escalated: text(stage.escalated) || null,
      remindedAt: text(stage.remindedAt) || null,
    };
  });
}

/** The stage whose approval request is `approvalId`. */
export function stageOf(job: Job, approvalId: string | undefined): StageView | undefined {
  return approvalId ? stagesOf(job).find((stage) => stage.id === approvalId) : undefined;
}

/** How a settled stage was decided (an expired one reads as rejected, and says it expired). */
export function stageDecision(stage: StageView, reader: Reader = DEFAULT_READER): ApprovalRecord['decision'] {
  if (stage.status === 'expired') {
    return {
      outcome: 'rejected',
      by: 'Steward',
      at: stage.time ?? '',
      message: say(reader, 'approval.expired'),
    };
  }
  if (stage.status !== 'approved' && stage.status !== 'rejected') return null;
  const name =
    stage.approvers.find((a) => a.id === stage.decider?.id)?.name ?? stage.decider?.name ?? 'an approver';
  return { outcome: stage.status, by: name, at: stage.time ?? '', message: stage.comment };
}

/**
 * The lines an approver's card shows about the stages: which stage this is, what the earlier stages
 * decided (with their comments), and why the card came (escalated) or came back (a reminder).
 */
export function stageNotes(job: Job, approvalId: string, reader: Reader = DEFAULT_READER): string[] {
  const stages = stagesOf(job);
  const stage = stages.find((s) => s.id === approvalId);
  if (!stage) return [];
  const notes: string[] = [];
  if (stage.count > 1) {
    notes.push(
      say(reader, 'approval.stage', { number: stage.number, count: stage.count, stage: stage.name }),
    );
  }
  for (const earlier of stages.slice(0, stage.number - 1)) {
    const decided = stageDecision(earlier, reader);
    if (!decided) continue;
    const line = say(reader, 'approval.earlierStage', { stage: earlier.name, name: decided.by });
    notes.push(decided.message ? `${line}: “${decided.message}”` : line);
  }
  const timers = object(object(object(job.data).approval).timers);
  if (stage.escalated === 'late') {
    const hours = typeof timers.escalateAfterHours === 'number' ? timers.escalateAfterHours : 0;
    notes.push(say(reader, 'approval.escalatedLate', { stage: stage.name, hours }));
  }
  if (stage.escalated === 'empty') notes.push(say(reader, 'approval.escalatedEmpty', { stage: stage.name }));
  if (stage.remindedAt)
    notes.push(say(reader, 'approval.reminder', { when: dateTimeFor(reader, job.createdDateTime) }));
  return notes;
}
