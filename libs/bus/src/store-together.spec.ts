import { StoreTogether } from './store-together';

describe('StoreTogether', () => {
  it('stores what arrives while a transaction commits in the next one, all of it together', async () => {
    const transactions: number[][] = [];
    const together = new StoreTogether<number, number>(async (items) => {
      transactions.push(items);
      await Promise.resolve();
      return items.map((item) => item * 10);
    });
    const results = await Promise.all([1, 2, 3, 4].map((item) => together.store(item)));
    expect(results).toEqual([10, 20, 30, 40]);
    expect(transactions).toEqual([[1], [2, 3, 4]]);
  });

  it('stores each item of a failed transaction alone, so only the one at fault fails', async () => {
    const together = new StoreTogether<number, number>(async (items) => {
      await Promise.resolve();
      if (items.includes(3)) throw new Error('refused');
      return items;
    });
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((item) => together.store(item)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  });
});
