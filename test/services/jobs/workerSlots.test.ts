import { WorkerSlots } from '../../../src/services/jobs/workerSlots';

/**
 * A job waits for a Graph budget turn before most of its calls, and lends its slot out meanwhile:
 * the slots lent out are claimed for together, not by a claim (a statement) for each wait.
 */
describe("a worker's slots", () => {
  test('slots lent out by budget waits ask for a spaced claim, none at once', () => {
    const now: string[] = [];
    const soon: string[] = [];
    const slots = new WorkerSlots(
      4,
      () => now.push('claim'),
      () => soon.push('claim'),
    );
    // The last claim took all it asked for: due jobs may be left behind.
    slots.claimed(2, 2);
    const ends = [slots.lender.waiting(800), slots.lender.waiting(300), slots.lender.waiting(1200)];
    expect(now).toEqual([]);
    expect(soon).toHaveLength(3);
    // Three jobs wait for their turns: they hold none of the four slots.
    expect(slots.free(4)).toBe(3);
    for (const end of ends) end();
    expect(slots.free(4)).toBe(0);
    // A slot freed by a job that ended or parked is still filled at once.
    slots.freed();
    expect(now).toEqual(['claim']);
  });

  test('after a claim that found fewer jobs than it asked for, a wait asks for no claim', () => {
    const asked: string[] = [];
    const slots = new WorkerSlots(
      4,
      () => asked.push('now'),
      () => asked.push('soon'),
    );
    slots.claimed(3, 1);
    slots.lender.waiting(500)();
    slots.freed();
    expect(asked).toEqual([]);
    slots.due();
    slots.lender.waiting(500)();
    expect(asked).toEqual(['soon']);
  });
});
