import { defineXProject } from '@x/vitest-preset';

export default defineXProject({ test: { globalSetup: ['test/moto-global-setup.ts'] } });
