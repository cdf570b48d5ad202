/**
 * Runs tasks that share a key one after another, in this process, and tasks with different keys at
 * once. The bot's card records are read, changed and written back; two deliveries about the same
 * team handled at the same time would each write back what they read and lose the other's card.
 * (A dozen lines, so no library: the mutex packages on npm lock one resource, not one per key.)
 */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
