import { defineXProject } from '@x/vitest-preset';

export default defineXProject();
