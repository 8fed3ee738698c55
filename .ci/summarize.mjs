// Adds up the Vitest and Playwright JSON reports into the closing line CI reads.
import { existsSync, readFileSync } from 'node:fs';
import { stripVTControlCharacters } from 'node:util';

const read = (path) => (existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined);
// CI keeps only the last lines it prints: each failure's own message goes with its name, short.
const firstLines = (message = '') =>
  stripVTControlCharacters(message)
    .split('\n')
    .filter((line) => line.trim())
    .slice(0, 4)
    .map((line) => `    ${line.trim().slice(0, 200)}`)
    .join('\n');
let passed = 0;
let failed = 0;
let skipped = 0;

const unit = read('.ci/out/unit.json');
if (unit) {
  passed += unit.numPassedTests;
  // A suite that fails in a hook fails no test of its own; count it too.
  failed += Math.max(unit.numFailedTests, unit.numFailedTestSuites);
  skipped += unit.numPendingTests + (unit.numTodoTests ?? 0);
  // Name what failed, so the closing lines CI keeps say which tests to look at.
  for (const file of unit.testResults) {
    const failedTests = file.assertionResults.filter((test) => test.status === 'failed');
    for (const test of failedTests) {
      console.log(`FAILED unit: ${file.name} › ${test.fullName}`);
      console.log(firstLines(test.failureMessages?.[0]));
    }
    if (file.status === 'failed' && failedTests.length === 0)
      console.log(`FAILED unit suite: ${file.name}: ${(file.message ?? '').slice(0, 300)}`);
  }
} else {
  console.log('No unit test report (.ci/out/unit.json).');
  failed += 1;
}

const e2e = read('.ci/out/e2e.json');
if (e2e) {
  passed += e2e.stats.expected + e2e.stats.flaky;
  failed += e2e.stats.unexpected;
  skipped += e2e.stats.skipped;
  const failedSpecs = (suite) => [
    ...(suite.specs ?? []).filter((spec) => !spec.ok),
    ...(suite.suites ?? []).flatMap(failedSpecs),
  ];
  for (const spec of e2e.suites.flatMap(failedSpecs)) {
    console.log(`FAILED browser: ${spec.file} › ${spec.title}`);
    const error = spec.tests.flatMap((test) => test.results).find((result) => result.error)?.error;
    console.log(firstLines(error?.message));
  }
} else {
  console.log('No browser test report (.ci/out/e2e.json).');
  failed += 1;
}

const failedSteps = Number(process.argv[2] ?? 0);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || failedSteps > 0 ? 1 : 0);
