import { readdir, realpath } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { openVerifiedDirectory, readRegularFile } from '../paths/index.js';
import { InvalidSkillError } from './invalid-skill-error.js';
import { parseSkillFile, thirdPartySkillName } from './parse-skill-file.js';
import type { Skill } from './skill.js';

/** Skill directories of a workspace, highest priority first (reference `load_project_skills`). */
export const PROJECT_SKILL_DIRS: readonly string[] = Object.freeze([
  '.agents/skills',
  '.openhands/skills',
  '.openhands/microagents',
]);

/** A skill file longer than this is refused (it would be sent to the model on every turn). */
export const MAX_SKILL_FILE_BYTES = 1024 * 1024;

/** Skills read from disk, and one error per file that could not be read as a skill (the others still load). */
export interface LoadedSkills {
  skills: Skill[];
  errors: InvalidSkillError[];
}

/**
 * Loads the skills of one directory (reference `load_skills_from_dir`): every `*.md` below it except `README.md`
 * (named by its path relative to the directory, without `.md`) and every `<name>/SKILL.md` (AgentSkills format).
 * Files are read only when they really lie inside `root` (default: the directory itself), are regular files with
 * one name and at most `MAX_SKILL_FILE_BYTES` long; anything else (a link out, a FIFO, a device) is an error.
 */
export async function loadSkillsFromDir(directory: string, root: string = directory): Promise<LoadedSkills> {
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot === undefined) return { skills: [], errors: [] };
  const files = await listMarkdown(directory);
  const skillDirs = new Set(files.filter((file) => basename(file).toLowerCase() === 'skill.md').map(dirname));
  const result: LoadedSkills = { skills: [], errors: [] };
  for (const file of files) {
    const name = basename(file);
    const isSkillMd = name.toLowerCase() === 'skill.md';
    if (!isSkillMd && (name === 'README.md' || [...skillDirs].some((dir) => file.startsWith(dir + sep)))) continue;
    const relativePath = relative(directory, file).split(sep).join('/');
    const defaultName = isSkillMd ? basename(dirname(file)) : relativePath.replace(/\.md$/i, '');
    await loadInto(result, realRoot, file, { defaultName, agentSkillsFormat: isSkillMd });
  }
  return result;
}

/**
 * Loads a workspace's skills: third-party instruction files at its root (`AGENTS.md`, `CLAUDE.md`, `GEMINI.md`,
 * `.cursorrules`, always on) and the skill directories `.agents/skills`, `.openhands/skills` and
 * `.openhands/microagents`. The first skill of a name wins.
 */
export async function loadProjectSkills(workspace: string): Promise<LoadedSkills> {
  const result: LoadedSkills = { skills: [], errors: [] };
  const realRoot = await realpath(workspace).catch(() => undefined);
  if (realRoot === undefined) return result;
  const entries = await readdir(workspace, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (!entry.isFile() || thirdPartySkillName(entry.name) === undefined) continue;
    await loadInto(result, realRoot, join(workspace, entry.name), { defaultName: entry.name });
  }
  for (const dir of PROJECT_SKILL_DIRS) {
    const loaded = await loadSkillsFromDir(join(workspace, dir), workspace);
    result.skills.push(...loaded.skills);
    result.errors.push(...loaded.errors);
  }
  const seen = new Set<string>();
  result.skills = result.skills.filter((skill) => !seen.has(skill.name) && seen.add(skill.name));
  return result;
}

/**
 * The user-level skills directory: `$X_HOME/skills`, else `~/.x/skills` (x's home in place of the reference's
 * `~/.openhands/skills`).
 */
export function defaultUserSkillsDir(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const home = env.X_HOME === undefined || env.X_HOME === '' ? join(homedir(), '.x') : resolve(env.X_HOME);
  return join(home, 'skills');
}

/**
 * Loads the user's own skills (reference `load_user_skills`), the same way as a workspace's skill directories:
 * `*.md` files and `<name>/SKILL.md` directories, each read only when it really lies inside its directory. With
 * several directories, the first skill of a name wins.
 */
export async function loadUserSkills(directories: readonly string[] = [defaultUserSkillsDir()]): Promise<LoadedSkills> {
  const result: LoadedSkills = { skills: [], errors: [] };
  for (const directory of directories) {
    const loaded = await loadSkillsFromDir(directory);
    result.skills.push(...loaded.skills);
    result.errors.push(...loaded.errors);
  }
  const seen = new Set<string>();
  result.skills = result.skills.filter((skill) => !seen.has(skill.name) && seen.add(skill.name));
  return result;
}

/** Reads a skill file through its verified parent directory (see `openRegularFile` for what is refused). */
async function readSkillFile(realRoot: string, file: string): Promise<string> {
  const directory = await openVerifiedDirectory(realRoot, dirname(file), file);
  try {
    return await readRegularFile(directory, basename(file), { shown: file, maxBytes: MAX_SKILL_FILE_BYTES });
  } finally {
    await directory.close();
  }
}

async function loadInto(
  result: LoadedSkills,
  realRoot: string,
  file: string,
  options: { defaultName: string; agentSkillsFormat?: boolean },
): Promise<void> {
  try {
    const text = await readSkillFile(realRoot, file);
    result.skills.push(await parseSkillFile(text, { path: file, ...options }));
  } catch (error) {
    result.errors.push(
      error instanceof InvalidSkillError
        ? error
        : new InvalidSkillError(file, `it cannot be read (${error instanceof Error ? error.message : String(error)})`, {
            cause: error,
          }),
    );
  }
}

async function listMarkdown(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.md'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function basename(path: string): string {
  return path.slice(path.lastIndexOf(sep) + 1);
}

function dirname(path: string): string {
  return path.slice(0, path.lastIndexOf(sep));
}
