import { MemoryStorage } from 'botbuilder';
import { ApprovalState } from '../../../src/bot/approvals/approvalState';
import { ApproverDeliveries } from '../../../src/bot/approvals/approverDeliveries';
import type { BotLog } from '../../../src/bot/botLog';

const SIOBHAN = { id: 'siobhan', name: 'Siobhán' };
const timing = { initialMs: 40, maxMs: 60_000, giveUpAfterMs: 3_600_000 };

/** A log that keeps each line's message and fields. */
function keptLog(): { log: BotLog; lines: Array<{ msg: string; fields: Record<string, unknown> }> } {
  const lines: Array<{ msg: string; fields: Record<string, unknown> }> = [];
  const keep = (fields: object, msg: string) => void lines.push({ msg, fields: { ...fields } });
  return { log: { warn: keep, info: keep, error: keep }, lines };
}

/** Resolves once `attempts` has `count` entries, or fails after `ms`. */
async function attemptsReach(attempts: number[], count: number, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (attempts.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${attempts.length} attempts in ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('approval cards retried after an attempt that broke off', () => {
  let deliveries: ApproverDeliveries | undefined;
  afterEach(() => deliveries?.stop());

  it('tries again on the backoff, not after the longest wait, and starts over once an attempt completes', async () => {
    const approvalState = new ApprovalState(new MemoryStorage());
    const { log, lines } = keptLog();
    deliveries = new ApproverDeliveries({ approvalState, log, timing });
    const attempts: number[] = [];
    let outcome: 'break' | 'refuse' = 'break';
    deliveries.use(async (approvalId, jobId) => {
      attempts.push(Date.now());
      if (outcome === 'break') throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      await deliveries!.failed(SIOBHAN, approvalId, jobId, new Error('Forbidden'));
      return [SIOBHAN.id];
    });

    await deliveries.failed(SIOBHAN, 'approval-1', 'job-1', new Error('Forbidden'));
    const start = Date.now();
    // Three broken attempts: 40, 80 and 160 ms apart after the first planned wait of 40 ms.
    await attemptsReach(attempts, 4);
    const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
    expect(attempts[0]! - start).toBeLessThan(2_000);
    expect(gaps[0]).toBeGreaterThanOrEqual(40 - 5);
    expect(gaps[1]).toBeGreaterThanOrEqual(80 - 5);
    expect(gaps[2]).toBeGreaterThanOrEqual(160 - 5);
    const broken = lines.filter((line) => line.msg === 'could not retry approval cards; trying again later');
    expect(broken.map((line) => line.fields.retryInMs)).toEqual([40, 80, 160, 320].slice(0, broken.length));
    expect(broken.length).toBeGreaterThanOrEqual(3);

    // The approver's side answers again (with a refusal): the note's own backoff takes over.
    outcome = 'refuse';
    await attemptsReach(attempts, 6, 10_000);
    const note = await approvalState.pendingDelivery(SIOBHAN.id, 'approval-1');
    expect(note?.attempts).toBeGreaterThanOrEqual(2);

    // An attempt completed: the next one that breaks off starts the backoff over.
    const again = () =>
      lines.filter((line) => line.msg === 'could not retry approval cards; trying again later');
    const before = again().length;
    outcome = 'break';
    await attemptsReach(attempts, attempts.length + 1, 10_000);
    while (again().length === before) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(again()[before]!.fields.retryInMs).toBe(40);
  });

  it('keeps the attempt it planned when the attempt broke off after noting the refusal', async () => {
    const approvalState = new ApprovalState(new MemoryStorage());
    const { log, lines } = keptLog();
    deliveries = new ApproverDeliveries({ approvalState, log, timing: { ...timing, initialMs: 30 } });
    const attempts: number[] = [];
    deliveries.use(async (approvalId, jobId) => {
      attempts.push(Date.now());
      await deliveries!.failed(SIOBHAN, approvalId, jobId, new Error('Forbidden'));
      throw new Error('the requester’s card could not be saved');
    });

    await deliveries.failed(SIOBHAN, 'approval-1', 'job-1', new Error('Forbidden'));
    // Planned by `failed`: 60 ms after the first attempt, then 120 ms (attempts 2 and 3).
    await attemptsReach(attempts, 3);
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(60 - 5);
    expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(120 - 5);
    const broken = lines.filter((line) => line.msg === 'could not retry approval cards; trying again later');
    expect(broken.length).toBeGreaterThanOrEqual(2);
    expect(broken.every((line) => line.fields.retryInMs === undefined)).toBe(true);
    expect((await approvalState.pendingDelivery(SIOBHAN.id, 'approval-1'))?.attempts).toBeGreaterThanOrEqual(
      3,
    );
  });

  it('plans nothing once stopped', async () => {
    const approvalState = new ApprovalState(new MemoryStorage());
    const { log } = keptLog();
    deliveries = new ApproverDeliveries({ approvalState, log, timing });
    const attempts: number[] = [];
    deliveries.use(async () => {
      attempts.push(Date.now());
      deliveries!.stop();
      throw new Error('the store is closing');
    });
    await deliveries.failed(SIOBHAN, 'approval-1', 'job-1', new Error('Forbidden'));
    await attemptsReach(attempts, 1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(attempts).toHaveLength(1);
  });
});
