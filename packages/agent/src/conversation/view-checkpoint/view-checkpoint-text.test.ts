import { type AnyEvent, createEvent, ROOT_PARENT_ID, View, withParent } from '@x/events';
import { createMemoryFileStore, EventLog } from '@x/store';
import { describe, expect, it } from 'vitest';
import { applyEvent } from '../../state/apply-event.js';
import { type ConversationState, initialConversationState } from '../../state/conversation-state.js';
import { buildViewCheckpointText } from './build-view-checkpoint.js';
import { restoreView } from './restore-view.js';
import { VIEW_CHECKPOINT_FILE } from './view-checkpoint-file.js';

/** A deterministic generator (so a failure replays). */
function generator(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return Math.floor((state / 2 ** 31) * n);
  };
}

describe('the view checkpoint text (entries written before reused)', () => {
  it('is JSON.stringify of the checkpoint at every write, through restores, condensations and summaries', async () => {
    const random = generator(5);
    const store = createMemoryFileStore();
    const log = await EventLog.open(store, { dir: 'conversation/events' });
    let state: ConversationState = initialConversationState({ id: 'text' });
    let view = new View();
    let parent: string = ROOT_PARENT_ID;
    const onBranch: string[] = [];
    let checks = 0;
    const append = async (event: AnyEvent, branch = true) => {
      const stamped = withParent(event, parent);
      await log.append(stamped);
      state = applyEvent(state, stamped);
      view.append(stamped);
      if (branch) {
        parent = stamped.id;
        onBranch.push(stamped.id);
      }
    };
    const check = async () => {
      const built = buildViewCheckpointText(view, state, log);
      expect(built).toBeDefined();
      expect(built!.text).toBe(JSON.stringify(built!.checkpoint));
      checks++;
      return built!.text;
    };
    // The smallest views first: no entry, then one (the text's separators are placed by count).
    await check();
    await append(createEvent('SystemPromptEvent', { system_prompt: { type: 'text', text: 'agent' }, tools: [] }));
    await check();
    for (let step = 0; step < 400; step++) {
      const pick = random(20);
      if (pick < 12) {
        // A stats-like update between steps (not on the branch) splits the view's runs.
        if (random(2) === 0) {
          await append(createEvent('ConversationStateUpdateEvent', { key: 'title', value: `t${step}` }), false);
        }
        const text = `message ${step}`;
        await append(
          createEvent('MessageEvent', {
            source: 'user',
            llm_message: { role: 'user', content: [{ type: 'text', text }] },
          }),
        );
      } else if (pick < 14 && onBranch.length > 4) {
        // A condensation (a new fold array, sometimes with a summary entry).
        const forgotten = onBranch.slice(1, 1 + random(3));
        const summary = random(2) === 0 ? { summary: `s${step}`, summary_offset: 1 } : {};
        await append(
          createEvent('Condensation', { forgotten_event_ids: forgotten, llm_response_id: `r${step}`, ...summary }),
        );
      } else if (pick < 16) {
        // A resume: the view restored from the file just written, its named entries remembered without text.
        const text = await check();
        await store.write(`conversation/${VIEW_CHECKPOINT_FILE}`, text);
        const restored = await restoreView({ store, directory: 'conversation', log, state });
        if (restored !== undefined) view = restored;
      }
      if (random(4) === 0) await check();
    }
    await check();
    expect(checks).toBeGreaterThan(100);
    await log.close();
  });
});
