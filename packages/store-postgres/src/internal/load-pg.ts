type Pg = typeof import('pg');

let loaded: Promise<Pg> | undefined;

/** node-postgres, imported on first use so that importing this package costs nothing more. */
export function loadPg(): Promise<Pg> {
  loaded ??= import('pg').then((module) => ((module as unknown as { default?: Pg }).default ?? module) as Pg);
  return loaded;
}
