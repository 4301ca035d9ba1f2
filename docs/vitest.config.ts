import { defineXProject } from '@x/vitest-preset';

export default defineXProject({ test: { include: ['test/**/*.test.ts'] } });
