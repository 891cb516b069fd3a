/**
 * Runs `work` for each item, at most `size` at a time, and waits for all. Work whose calls depend
 * on each other's effects belongs in one item, done in order inside it.
 */
export async function inPool<T>(items: readonly T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
}
