import { AnswerCache } from './answer-cache';

describe('AnswerCache', () => {
  const counting = () => {
    let calls = 0;
    return { fetch: async () => `answer ${++calls}`, calls: () => calls };
  };

  it('answers a repeated request from memory, and another request upstream', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10 });
    const upstream = counting();
    expect(await cache.answer('/m', { n: 'asthma' }, upstream.fetch)).toBe('answer 1');
    expect(await cache.answer('/m', { n: 'asthma' }, upstream.fetch)).toBe('answer 1');
    expect(await cache.answer('/m', { n: 'asthmo' }, upstream.fetch)).toBe('answer 2');
    expect(await cache.answer('/other', { n: 'asthma' }, upstream.fetch)).toBe('answer 3');
  });

  it('shares one upstream call among concurrent identical requests', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10 });
    const upstream = counting();
    const answers = await Promise.all([1, 2, 3].map(() => cache.answer('/m', { n: 'x' }, upstream.fetch)));
    expect(answers).toEqual(['answer 1', 'answer 1', 'answer 1']);
    expect(upstream.calls()).toBe(1);
  });

  it('keeps no failure: the next request asks again', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10 });
    await expect(cache.answer('/m', {}, () => Promise.reject(new Error('unavailable')))).rejects.toThrow('unavailable');
    expect(await cache.answer('/m', {}, async () => 'recovered')).toBe('recovered');
  });

  it('asks again when a fresh answer is wanted, and keeps that one', async () => {
    const cache = new AnswerCache({ ttlMs: 60_000, maxEntries: 10 });
    const upstream = counting();
    await cache.answer('/m', {}, upstream.fetch);
    expect(await cache.answer('/m', {}, upstream.fetch, { fresh: true })).toBe('answer 2');
    expect(await cache.answer('/m', {}, upstream.fetch)).toBe('answer 2');
  });

  it('forgets answers older than the TTL', async () => {
    const cache = new AnswerCache({ ttlMs: 20, maxEntries: 10 });
    const upstream = counting();
    await cache.answer('/m', {}, upstream.fetch);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(await cache.answer('/m', {}, upstream.fetch)).toBe('answer 2');
  });
});
