import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** JSON with each object's keys sorted (the copy is compared as data, as the corpus test's toEqual does). */
const canonical = (value) =>
  JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort()) : v,
  );
const ev = await import(new URL('../../packages/events/dist/index.js', import.meta.url).href);
for (const dir of process.argv.slice(2)) {
  const out = { dir, errors: [] };
  const files = readdirSync(join(dir, 'events'))
    .filter((f) => f.startsWith('event-') && f.endsWith('.json'))
    .sort();
  const events = [];
  // Files not written back byte for byte, or not to the same JSON from a copy of the object (the corpus test's checks).
  out.not_written_back = [];
  for (const f of files) {
    try {
      const text = readFileSync(join(dir, 'events', f), 'utf8');
      const event = ev.parseEventJson(text);
      events.push(event);
      const copy = ev.serializeEvent(structuredClone(event));
      if (ev.serializeEvent(event) !== text || canonical(JSON.parse(copy)) !== canonical(JSON.parse(text)))
        out.not_written_back.push(f);
    } catch (e) {
      out.errors.push({ file: f, error: String(e.message).slice(0, 2000) });
    }
  }
  out.event_count = events.length;
  out.kinds = events.map((e) => e.kind);
  try {
    const view = ev.View.fromEvents(events);
    out.view_event_ids = view.events.map((e) => e.id);
    out.llm_visible_event_ids = view.events.filter((e) => e.kind !== 'CondensationSummaryEvent').map((e) => e.id);
    out.unhandled_condensation_request = view.unhandledCondensationRequest;
    try {
      out.manipulation_indices = view.manipulationIndices();
    } catch (e) {
      out.manipulation_indices = `error: ${e.name}`;
    }
    const messages = ev.eventsToMessages(view.events);
    out.messages = ev.toChatCompletionsMessages(messages, {
      cacheEnabled: false,
      visionEnabled: true,
      functionCallingEnabled: true,
    });
    out.messages_string_form = ev.toChatCompletionsMessages(messages, {
      forceStringSerializer: true,
      functionCallingEnabled: false,
    });
    out.messages_cache_reasoning = ev.toChatCompletionsMessages(messages, {
      cacheEnabled: true,
      visionEnabled: false,
      functionCallingEnabled: false,
      sendReasoningContent: true,
    });
    out.responses = ev.toResponsesInput(messages, { visionEnabled: true });
    out.responses_no_vision = ev.toResponsesInput(messages, { visionEnabled: false }).input;
    out.reserialized = events.map((e) => JSON.parse(ev.serializeEvent(e)));
  } catch (e) {
    out.derive_error = String(e.stack).slice(0, 3000);
  }
  console.log(JSON.stringify(out));
}
