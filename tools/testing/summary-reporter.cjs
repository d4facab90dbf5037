// Prints the closing line CI reads, "N passed, M failed" (and skipped, when any), and keeps it in
// tmp/test-summary.txt so .ci/run can repeat it as its last line. The names of what failed go to
// tmp/test-failures.txt: CI output is often seen only by its tail, so .ci/run repeats them there too.
const { mkdirSync, writeFileSync } = require('node:fs');
const { join, relative } = require('node:path');

const root = join(__dirname, '..', '..');

/** One line per failed test ("file › full name") and per suite that could not run ("file: its error's first line"). */
function failureLines(results) {
  const lines = [];
  for (const suite of results.testResults) {
    const file = relative(root, suite.testFilePath);
    if (suite.testExecError) lines.push(`${file}: ${String(suite.testExecError.message).split('\n')[0]}`);
    for (const test of suite.testResults) if (test.status === 'failed') lines.push(`${file} › ${test.fullName}`);
  }
  return lines;
}

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    const dir = join(root, 'tmp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'test-summary.txt'), `${results.numPassedTests} ${failed} ${skipped}\n`);
    writeFileSync(join(dir, 'test-failures.txt'), failureLines(results).map((failure) => `${failure}\n`).join(''));
    process.stdout.write(`\n${line}\n`);
  }
}
module.exports = SummaryReporter;
