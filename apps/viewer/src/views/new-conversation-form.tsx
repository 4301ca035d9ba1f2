import { useState } from 'preact/hooks';
import { api } from '../api/api-client.js';

/** The built-in tools a conversation started here gets (the reference's registry names). */
const TOOLS = [{ name: 'terminal' }, { name: 'file_editor' }, { name: 'task_tracker' }];

/** The create body of a conversation started from the form: empty optional fields are left out. */
export function startRequest(fields: {
  task: string;
  model: string;
  baseUrl: string;
  apiKey: string;
  workingDir: string;
}): Record<string, unknown> {
  const llm: Record<string, string> = { model: fields.model.trim() };
  if (fields.baseUrl.trim() !== '') llm.base_url = fields.baseUrl.trim();
  if (fields.apiKey !== '') llm.api_key = fields.apiKey;
  return {
    agent: { llm, tools: TOOLS },
    ...(fields.workingDir.trim() === '' ? {} : { workspace: { working_dir: fields.workingDir.trim() } }),
    initial_message: { role: 'user', content: [{ type: 'text', text: fields.task.trim() }] },
  };
}

/**
 * Starts a conversation (`POST /api/conversations` with an initial message, which runs at once) and opens it.
 * Without an API key the server uses its own environment's key for the model's provider.
 */
export function NewConversationForm() {
  const [open, setOpen] = useState(false);
  const [task, setTask] = useState('');
  const [model, setModel] = useState('gpt-4o-mini');
  const [baseUrl, setBaseUrl] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [workingDir, setWorkingDir] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        New conversation
      </button>
    );
  }
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const info = await api.startConversation(startRequest({ task, model, baseUrl, apiKey, workingDir }));
      location.hash = `#/c/${encodeURIComponent(info.id)}`;
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const text = (label: string, value: string, set: (value: string) => void, extra: Record<string, unknown> = {}) => (
    <label>
      {label}
      <input value={value} onInput={(event) => set((event.target as HTMLInputElement).value)} {...extra} />
    </label>
  );
  return (
    <form
      class="new-conversation"
      aria-label="New conversation"
      onSubmit={(event) => {
        event.preventDefault();
        if (task.trim() === '' || model.trim() === '') return;
        void submit();
      }}
    >
      <label>
        Task
        <textarea required value={task} onInput={(event) => setTask((event.target as HTMLTextAreaElement).value)} />
      </label>
      {text('Model', model, setModel, { required: true, placeholder: 'gpt-4o-mini, anthropic/claude-sonnet-4-6' })}
      {text('Base URL', baseUrl, setBaseUrl, { placeholder: "the provider's (optional)" })}
      {text('API key', apiKey, setApiKey, {
        type: 'password',
        placeholder: "the server's (optional)",
        autocomplete: 'off',
      })}
      {text('Working directory', workingDir, setWorkingDir, { placeholder: 'a new one on the server (optional)' })}
      {error === undefined ? null : (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Start
        </button>
        <button type="button" class="link" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
