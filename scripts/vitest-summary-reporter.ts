// Prints one plain closing line, "Tests: N passed, N failed, N skipped", that any CI reads,
// after a line naming the Node the tests ran on: on a machine whose own Node is 20, pnpm runs
// them on the Node 22 it installed (CONTRIBUTING.md, "Setup"), and nothing else shows which.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    const lines = [`Ran on Node.js ${process.version} (${process.execPath}).`];
    // `pnpm test` runs the examples after this, and only when nothing failed here.
    if (counts.failed > 0 && process.env.npm_lifecycle_event === 'test') {
      lines.push('The examples (pnpm test:examples) do not run: a test above failed.');
    }
    lines.push(`Tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
