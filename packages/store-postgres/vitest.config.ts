import { defineXProject } from '@x/vitest-preset';

export default defineXProject({ test: { globalSetup: ['test/postgres-global-setup.ts'] } });
