import { thing } from '@x/server/client';

export const probe = thing;
