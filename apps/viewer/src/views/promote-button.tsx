import { useState } from 'preact/hooks';
import { ApiError } from '../api/api-client.js';
import { insightApi } from '../api/insight-api.js';

/** Saves `text` as a file the browser downloads (nothing leaves the page: a local blob URL). */
function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * "Promote to eval case": asks the server for the eval case this conversation becomes (as `x eval promote`)
 * and downloads it as a one-case suite (`<case id>.eval.json`), ready for `x eval` or to be copied into a
 * suite. The server writes nothing.
 */
export function PromoteButton({ conversationId, disabled }: { conversationId: string; disabled: boolean }) {
  const [state, setState] = useState<{ busy: boolean; message?: string; failed?: boolean }>({ busy: false });
  const promote = async () => {
    setState({ busy: true });
    try {
      const promoted = await insightApi.promote(conversationId);
      download(promoted.file_name, `${JSON.stringify(promoted.suite, null, 2)}\n`);
      setState({ busy: false, message: `Saved ${promoted.file_name}` });
    } catch (caught) {
      const detail = caught instanceof ApiError ? caught.detail : (caught as Error).message;
      setState({ busy: false, message: `Promote failed: ${detail}`, failed: true });
    }
  };
  return (
    <>
      <button
        type="button"
        title="Download this conversation as an eval case (a one-case suite for x eval)"
        onClick={() => void promote()}
        disabled={disabled || state.busy}
      >
        Promote to eval case
      </button>
      {state.message === undefined ? null : (
        <span class={state.failed === true ? 'promote-note error' : 'promote-note'} role="status">
          {state.message}
        </span>
      )}
    </>
  );
}
