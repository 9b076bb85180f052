// Writes Jest's `--json` results file itself, because Jest's own writer throws on a failed test whose error
// object is circular (`Converting circular structure to JSON`) and then leaves no file, so the closing
// "N passed, M failed" line could not be counted. Same shape as `--json`; repeated references become "[Circular]".
const { writeFileSync } = require('node:fs');
const { formatTestResults } = require('@jest/test-result');

function withoutCycles() {
  const ancestors = [];
  return function replace(_key, value) {
    if (typeof value !== 'object' || value === null) return value;
    // `this` is the object holding the key: drop the ancestors we have climbed back out of.
    while (ancestors.length > 0 && ancestors.at(-1) !== this) ancestors.pop();
    if (ancestors.includes(value)) return '[Circular]';
    ancestors.push(value);
    return value;
  };
}

class JsonResultsReporter {
  constructor(_globalConfig, options = {}) {
    this.outputFile = options.outputFile ?? process.env.JEST_RESULTS_FILE;
  }

  onRunComplete(_contexts, results) {
    if (!this.outputFile) return;
    writeFileSync(this.outputFile, JSON.stringify(formatTestResults(results), withoutCycles()));
  }
}

module.exports = JsonResultsReporter;
