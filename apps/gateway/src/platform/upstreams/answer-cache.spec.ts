import { AnswerCache, jsonLengthOf } from './answer-cache';

describe('AnswerCache', () => {
  const counting = () => {
    let calls = 0;
    return { fetch: async () => `answer ${++calls}`, calls: () => calls };
  };

  it('answers a repeated request from memory, and another request upstream', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    const upstream = counting();
    expect(await cache.answer('/m', { n: 'asthma' }, upstream.fetch)).toBe('answer 1');
    expect(await cache.answer('/m', { n: 'asthma' }, upstream.fetch)).toBe('answer 1');
    expect(await cache.answer('/m', { n: 'asthmo' }, upstream.fetch)).toBe('answer 2');
    expect(await cache.answer('/other', { n: 'asthma' }, upstream.fetch)).toBe('answer 3');
  });

  it('shares one upstream call among concurrent identical requests', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    const upstream = counting();
    const answers = await Promise.all([1, 2, 3].map(() => cache.answer('/m', { n: 'x' }, upstream.fetch)));
    expect(answers).toEqual(['answer 1', 'answer 1', 'answer 1']);
    expect(upstream.calls()).toBe(1);
  });

  it('keeps no failure: the next request asks again', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    await expect(cache.answer('/m', {}, () => Promise.reject(new Error('unavailable')))).rejects.toThrow('unavailable');
    expect(await cache.answer('/m', {}, async () => 'recovered')).toBe('recovered');
  });

  it('asks again when a fresh answer is wanted, and keeps that one', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10, maxBytes: 1_000_000 });
    const upstream = counting();
    await cache.answer('/m', {}, upstream.fetch);
    expect(await cache.answer('/m', {}, upstream.fetch, { fresh: true })).toBe('answer 2');
    expect(await cache.answer('/m', {}, upstream.fetch)).toBe('answer 2');
  });

  it('bounds the answers by their size as well as their count: the least recently used go first', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 1_000, maxBytes: 25_000 });
    const upstream = counting();
    const page = (n: number) => async () => ({ n, rows: 'x'.repeat(10_000), call: await upstream.fetch() });
    for (const n of [1, 2, 3]) await cache.answer('/m', { n }, page(n));
    // Three answers of 10 KB do not fit in 25 KB: the first was let go, the last two are still answered from memory.
    await cache.answer('/m', { n: 3 }, page(3));
    await cache.answer('/m', { n: 2 }, page(2));
    expect(upstream.calls()).toBe(3);
    await cache.answer('/m', { n: 1 }, page(1));
    expect(upstream.calls()).toBe(4);
  });

  it('keeps no answer larger than the whole budget', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 1_000, maxBytes: 1_000 });
    const upstream = counting();
    const huge = async () => ({ rows: 'x'.repeat(5_000), call: await upstream.fetch() });
    await cache.answer('/m', {}, huge);
    await cache.answer('/m', {}, huge);
    expect(upstream.calls()).toBe(2);
  });

  it('forgets answers older than the TTL', async () => {
    const cache = new AnswerCache({ ttlMs: 20, maxEntries: 10, maxBytes: 1_000_000 });
    const upstream = counting();
    await cache.answer('/m', {}, upstream.fetch);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.answer('/m', {}, upstream.fetch)).toBe('answer 2');
  });

  it.each([
    ['text', 'a "quoted" name'],
    ['a page', { diseases: [{ Disease_Name: 'Asthma', id: 12, exact: true, parent: null }, { Disease_Name: 'Acne' }], nextCursor: 'abc' }],
    ['nested arrays', [[1, 2.5, -3], [], [false, 'x']]],
  ])('sizes %s at about its JSON length without making the JSON', (_kind, value) => {
    const exact = JSON.stringify(value).length;
    expect(Math.abs(jsonLengthOf(value) - exact)).toBeLessThanOrEqual(exact * 0.2);
  });
});
