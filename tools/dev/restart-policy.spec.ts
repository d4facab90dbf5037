import { decideRestart, RESTART_POLICY, type RestartPolicy } from './restart-policy';

const policy: RestartPolicy = { firstDelayMs: 100, maxDelayMs: 1_000, healthyAfterMs: 10_000, maxFailuresInRow: 7 };

describe('decideRestart', () => {
  it('doubles the wait with each failure in a row, up to the ceiling, then gives up', () => {
    const decisions = [];
    let failures = 0;
    for (let i = 0; i < 7; i++) {
      const decision = decideRestart(policy, failures, 50);
      failures = decision.failuresInRow;
      decisions.push(decision.action === 'restart' ? decision.delayMs : decision.action);
    }
    expect(decisions).toEqual([100, 200, 400, 800, 1_000, 1_000, 'give up']);
  });

  it('starts a new row after a run that stayed up long enough', () => {
    expect(decideRestart(policy, 6, 10_000)).toEqual({ failuresInRow: 1, action: 'restart', delayMs: 100 });
    expect(decideRestart(policy, 6, 9_999)).toEqual({ failuresInRow: 7, action: 'give up' });
  });

  it("npm start's policy restarts a first crash within a second", () => {
    expect(decideRestart(RESTART_POLICY, 0, 5_000)).toEqual({ failuresInRow: 1, action: 'restart', delayMs: 500 });
  });
});
