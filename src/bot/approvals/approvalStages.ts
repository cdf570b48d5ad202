import type { Job } from '../../client';
import type { ApprovalRecord } from './approvalState';
import type { StageNote } from './stageNotes';

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
  /** `all`: each approver must approve; `any`: the first decision settles the stage. */
  decision: 'any' | 'all';
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
      decision: stage.decision === 'all' ? 'all' : 'any',
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

/**
 * How a settled stage was decided: an expired one reads as rejected, marked `expired` so each card
 * says so in its reader's language.
 */
export function stageDecision(stage: StageView): ApprovalRecord['decision'] {
  if (stage.status === 'expired') {
    return { outcome: 'rejected', by: '', at: stage.time ?? '', message: null, expired: true };
  }
  if (stage.status !== 'approved' && stage.status !== 'rejected') return null;
  // No name: the cards say "an approver" in their reader's language.
  const name = stage.approvers.find((a) => a.id === stage.decider?.id)?.name ?? stage.decider?.name ?? '';
  return { outcome: stage.status, by: name, at: stage.time ?? '', message: stage.comment };
}

/**
 * The notes an approver's card shows about the stages: which stage this is, what the earlier stages
 * decided (with their comments), and why the card came (escalated) or came back (a reminder; an
 * escalated card says why it came instead, its new approvers were never reminded).
 */
export function stageNotes(job: Job, approvalId: string): StageNote[] {
  const stages = stagesOf(job);
  const stage = stages.find((s) => s.id === approvalId);
  if (!stage) return [];
  const notes: StageNote[] = [];
  if (stage.count > 1) {
    notes.push({ kind: 'stage', number: stage.number, count: stage.count, stage: stage.name });
  }
  for (const earlier of stages.slice(0, stage.number - 1)) {
    const decided = stageDecision(earlier);
    if (!decided) continue;
    notes.push({ kind: 'earlier', stage: earlier.name, name: decided.by, comment: decided.message });
  }
  const timers = object(object(object(job.data).approval).timers);
  if (stage.escalated === 'late') {
    const hours = typeof timers.escalateAfterHours === 'number' ? timers.escalateAfterHours : 0;
    notes.push({ kind: 'escalatedLate', stage: stage.name, hours });
  } else if (stage.remindedAt) {
    notes.push({ kind: 'reminder', since: job.createdDateTime });
  }
  if (stage.escalated === 'empty') notes.push({ kind: 'escalatedEmpty', stage: stage.name });
  return notes;
}
