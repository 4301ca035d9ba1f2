import { defineXProject } from '@x/vitest-preset';

// The integration tests run the built `x` binary, so the global setup compiles the CLI first (its
// workspace dependencies resolve through their dist/, built by turbo before tests run).
export default defineXProject({ test: { globalSetup: ['test/helpers/build-cli.ts'] } });
