// At the end of a run, every test file with its duration, slowest first, so a CI log shows where
// the time goes. Enabled in vitest.config.ts when CI is set. A file's time is its import (the
// modules it loads) plus its tests and hooks, as vitest measured them in the worker.
import type { Reporter, TestModule } from 'vitest/node';

function fileSeconds(module: TestModule): number {
  const d = module.diagnostic();
  return (d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration) / 1000;
}

function durationLines(modules: ReadonlyArray<TestModule>): string[] {
  return modules
    .map((module) => ({ seconds: fileSeconds(module), project: module.project.name, file: module.relativeModuleId }))
    .sort((a, b) => b.seconds - a.seconds)
    .map(({ seconds, project, file }) => `${seconds.toFixed(1).padStart(7)} s  ${project.padEnd(10)} ${file}`);
}

export default class FileDurationsReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    if (testModules.length === 0) return;
    const count = `${testModules.length} file${testModules.length === 1 ? '' : 's'}`;
    process.stdout.write(`\nTest files by duration (slowest first, ${count}):\n${durationLines(testModules).join('\n')}\n`);
  }
}
