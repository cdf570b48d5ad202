/**
 * What `work` settles with, or a rejection with `expired()` when it has not settled within `ms`.
 * The timer never outlives the race; `work` itself goes on (its outcome is then ignored).
 */
export async function withDeadline<T>(work: Promise<T>, ms: number, expired: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(expired()), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
