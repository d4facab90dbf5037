// Prints the closing line CI reads, "N passed, M failed" (and skipped, when any),
// and keeps it in tmp/test-summary.txt so .ci/run can repeat it as its last line.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    const dir = join(__dirname, '..', '..', 'tmp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'test-summary.txt'), `${results.numPassedTests} ${failed} ${skipped}\n`);
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
