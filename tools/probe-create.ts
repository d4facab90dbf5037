import { startSystem } from '@libs/testing';
async function main() {
  const quiet = { LOG_LEVEL: 'warn' };
  const fin = JSON.parse(process.env.FIN_ENV ?? '{}');
  const system = await startSystem({ env: { gateway: quiet, reference: quiet, finance: { ...quiet, ...fin }, audit: quiet } });
  const h = { authorization: `Bearer ${system.keys.bursar}`, 'content-type': 'application/json' };
  const body = JSON.stringify({ date: '2026-09-01', categoryId: '00000000-0000-4000-8000-00000000c001', payee: 'X', amount: -100, accountId: '00000000-0000-4000-8000-00000000a001' });
  const times: number[] = [];
  for (let i = 0; i < 300; i++) {
    const t = performance.now();
    const r = await fetch(`${system.gatewayUrl}/api/v1/transactions`, { method: 'POST', headers: h, body });
    await r.text();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log('create p50', times[150].toFixed(1), 'p90', times[270].toFixed(1));
  await system.shutdown();
}
main();
