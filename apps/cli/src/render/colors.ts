import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

export interface ColorChoice {
  /** `false` from `--no-color`, `true` from `--color`, undefined when neither was given. */
  flag: boolean | undefined;
  env: NodeJS.ProcessEnv;
  /** Whether the stream the text goes to is a terminal. */
  isTTY: boolean;
}

/**
 * Whether to color: `--no-color` or a non-empty NO_COLOR (no-color.org) always win; then `--color` or a
 * FORCE_COLOR other than 0 force colors on; otherwise only a terminal that is not TERM=dumb gets them.
 */
export function colorsEnabled({ flag, env, isTTY }: ColorChoice): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (flag === true) return true;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return isTTY && env.TERM !== 'dumb';
}

export function createColors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}
