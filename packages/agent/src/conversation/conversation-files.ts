import type { FileStore } from '@x/store';
import type { ConversationFiles } from '../tools/tool.js';

/** The files of one conversation's directory, as tools see them (`TASKS.json` next to `base_state.json`). */
export function conversationFiles(store: FileStore, directory: string): ConversationFiles {
  return {
    async read(name) {
      const path = `${directory}/${name}`;
      if (!(await store.exists(path))) return undefined;
      return store.read(path);
    },
    write: (name, text) => store.write(`${directory}/${name}`, text),
  };
}
