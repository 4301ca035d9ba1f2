import { arr, contentImages, contentText, obj, str } from '../render/event-text.js';
import { lineDiff } from '../render/line-diff.js';

/** An image from an event: only inline data: images are drawn; a remote URL is shown as text and never fetched. */
export function EventImages({ urls }: { urls: string[] }) {
  if (urls.length === 0) return null;
  return (
    <div class="images">
      {urls.map((url, index) =>
        /^data:image\/(?:png|jpeg|gif|webp);base64,/i.test(url) ? (
          <img key={index} src={url} alt={`attachment ${index + 1} of the event`} class="event-image" />
        ) : (
          <p key={index} class="muted">
            Remote image not loaded: <code>{url.slice(0, 200)}</code>
          </p>
        ),
      )}
    </div>
  );
}

/** Tool-call arguments: the parsed action without its kind, or the raw JSON the model sent. */
export function ToolArguments({ event }: { event: Record<string, unknown> }) {
  const action = obj(event.action);
  const toolCall = obj(event.tool_call);
  const command = str(action?.command);
  if (action !== undefined && event.tool_name === 'terminal' && command !== undefined) {
    return <pre class="terminal">$ {command}</pre>;
  }
  if (action !== undefined && event.tool_name === 'file_editor') {
    return <FileEditArguments action={action} />;
  }
  const shown = action === undefined ? str(toolCall?.arguments) : JSON.stringify(withoutKind(action), null, 2);
  return shown === undefined ? null : <pre class="args">{shown}</pre>;
}

function withoutKind(record: Record<string, unknown>): Record<string, unknown> {
  const { kind: _kind, ...rest } = record;
  return rest;
}

function FileEditArguments({ action }: { action: Record<string, unknown> }) {
  const command = str(action.command) ?? '';
  const path = str(action.path) ?? '';
  let diff: { before: string; after: string } | undefined;
  if (command === 'str_replace') diff = { before: str(action.old_str) ?? '', after: str(action.new_str) ?? '' };
  else if (command === 'create') diff = { before: '', after: str(action.file_text) ?? '' };
  else if (command === 'insert') diff = { before: '', after: str(action.new_str) ?? '' };
  return (
    <div>
      <p class="muted">
        {command} <code>{path}</code>
      </p>
      {diff === undefined ? null : <Diff before={diff.before} after={diff.after} />}
    </div>
  );
}

export function Diff({ before, after }: { before: string; after: string }) {
  const lines = lineDiff(before, after);
  return (
    <pre class="diff">
      {lines.map((line, index) => (
        <span key={index} class={`diff-${line.kind}`}>
          {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
          {line.text}
          {'\n'}
        </span>
      ))}
    </pre>
  );
}

/** An observation: terminal output with its exit code, a file edit as a diff, images, or text (MCP results included). */
export function ObservationBody({ observation }: { observation: Record<string, unknown> }) {
  const kind = str(observation.kind) ?? '';
  // Their text repeats the action's (already shown, as Markdown, on the action).
  if (kind === 'FinishObservation') return <p class="muted">Finished.</p>;
  if (kind === 'ThinkObservation') return <p class="muted">Thought logged.</p>;
  const text = contentText(observation.content);
  const images = contentImages(observation.content);
  const isError = observation.is_error === true;
  if (kind === 'TerminalObservation') {
    const exitCode = observation.exit_code;
    return (
      <div>
        <pre class={`terminal${isError ? ' error' : ''}`}>{text}</pre>
        <p class="muted">
          exit code <strong>{typeof exitCode === 'number' ? exitCode : '?'}</strong>
          {observation.timed_out === true ? ' · timed out' : ''}
        </p>
      </div>
    );
  }
  const oldContent = str(observation.old_content);
  const newContent = str(observation.new_content);
  return (
    <div>
      {kind === 'FileEditorObservation' && oldContent !== undefined && newContent !== undefined ? (
        <Diff before={oldContent} after={newContent} />
      ) : null}
      {text === '' ? null : <pre class={`output${isError ? ' error' : ''}`}>{text}</pre>}
      <EventImages urls={images} />
      {kind !== '' && kind !== 'TerminalObservation' && arr(observation.content).length === 0 && text === '' ? (
        <p class="muted">{kind}</p>
      ) : null}
    </div>
  );
}
