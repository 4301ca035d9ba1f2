import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { UsageError } from '../errors/usage-error.js';

/** The file beside a fork's events that holds what `x fork` chose for its runs (outside the reference's files). */
export const FORK_SETTINGS_FILE = 'x_fork_settings.json';

/** What `x run --resume` uses for a counterfactual fork unless its own flags say otherwise. */
export const forkSettingsSchema = z.object({
  /** Model of the fork's runs (as `--model`). */
  model: z.string().min(1).optional(),
  /** Built-in tools the fork's agent keeps (finish and think always stay). */
  tools: z.array(z.string().min(1)).optional(),
});
export type ForkSettings = z.infer<typeof forkSettingsSchema>;

export async function writeForkSettings(location: string, settings: ForkSettings): Promise<void> {
  if (settings.model === undefined && settings.tools === undefined) return;
  await writeFile(join(location, FORK_SETTINGS_FILE), JSON.stringify(settings));
}

/** The fork's settings; none for a conversation `x fork` did not make (a malformed file is a usage error naming it). */
export async function readForkSettings(location: string): Promise<ForkSettings> {
  let text: string;
  try {
    text = await readFile(join(location, FORK_SETTINGS_FILE), 'utf8');
  } catch {
    return {};
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = forkSettingsSchema.safeParse(json);
  if (!parsed.success) throw new UsageError(`${join(location, FORK_SETTINGS_FILE)} is not valid fork settings.`);
  return parsed.data;
}
