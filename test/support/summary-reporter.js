/** Ends every run with one plain line, `N passed, N failed, N skipped`, that any CI log reader understands
 * (written at exit, so it follows Jest's own summary). */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped`;
    process.once('exit', () => process.stderr.write(`\n${line}\n`));
  }
}
module.exports = SummaryReporter;
