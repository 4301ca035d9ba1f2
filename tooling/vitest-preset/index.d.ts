import type { UserWorkspaceConfig } from 'vitest/config';
export declare function workspaceAliases(): { find: RegExp; replacement: string }[];
export declare function defineXProject(overrides?: UserWorkspaceConfig): UserWorkspaceConfig;
