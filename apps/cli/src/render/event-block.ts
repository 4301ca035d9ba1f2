import { type AnyEvent, contentText, getEventThinking, observationText } from '@x/events';
import type { Colors } from './colors.js';
import { terminalSafe, terminalText } from './terminal-safe.js';
import { actionSummary, excerpt, toolArgumentLines } from './tool-arguments.js';
import { oneLine } from './truncate.js';

const QUIET_OBSERVATIONS = new Set(['FinishObservation', 'ThinkObservation']);

export interface BlockOptions {
  colors: Colors;
  /** The event's log index, shown as `#n` (omitted for events that are not persisted). */
  index?: number | undefined;
  /** Text already shown while streaming: not printed again. */
  streamedText?: string;
}

/**
 * One readable block per event (the first line is the header, the rest is indented), or `undefined` for
 * events a reader does not need to see (token ids, completion logs, stats updates).
 */
export function eventBlock(unsafeEvent: AnyEvent, options: BlockOptions): string[] | undefined {
  const event = terminalSafe(unsafeEvent);
  const streamedText = options.streamedText === undefined ? undefined : terminalText(options.streamedText);
  const c = options.colors;
  const tag = options.index === undefined ? '' : ` ${c.dim(`#${options.index}`)}`;
  const header = (symbol: string, title: string, detail = ''): string =>
    `${symbol} ${title}${detail === '' ? '' : ` ${c.dim(detail)}`}${tag}`;
  const body = (lines: string[]): string[] => lines.map((line) => `  ${line}`);

  switch (event.kind) {
    case 'SystemPromptEvent': {
      const tools = event.tools.map((tool) => String(tool.title ?? tool.kind)).join(', ');
      return [
        header(
          c.dim('⚙'),
          c.dim('System prompt'),
          `${event.system_prompt.text.length} chars · tools: ${tools || 'none'}`,
        ),
      ];
    }
    case 'MessageEvent': {
      const text = contentText(event.llm_message.content) + contentText(event.extended_content);
      // Already shown token by token while streaming.
      if (text === streamedText && getEventThinking(event) === '') return undefined;
      const who =
        event.source === 'user'
          ? header(c.cyan('▶'), c.bold(c.cyan(event.sender ?? 'User')))
          : event.source === 'agent'
            ? header(c.green('◀'), c.bold(c.green(event.sender ?? 'Agent')))
            : header(c.dim('•'), c.dim(event.source === 'hook' ? 'Hook' : 'Environment'));
      return [who, ...body([...thinking(event, c), ...excerpt(text, c, { head: 40, tail: 10, plain: true })])];
    }
    case 'ActionEvent': {
      const thought = contentText(event.thought);
      const lines: string[] = [];
      // A thought already streamed is not shown again; its reasoning, never streamed, still is.
      const shownThought = thought === streamedText ? '' : thought;
      const reasoning = thinking(event, c);
      if (shownThought !== '' || reasoning.length > 0) {
        lines.push(header(c.green('◀'), c.bold(c.green('Agent'))));
        lines.push(...body([...reasoning, ...excerpt(shownThought, c, { head: 20, tail: 5, plain: true })]));
      }
      const valid = event.action !== undefined;
      const risk = event.security_risk !== 'UNKNOWN' ? ` risk ${event.security_risk}` : '';
      const modelSummary = actionSummary(event);
      const summary = modelSummary === undefined ? '' : `— ${oneLine(modelSummary, 80)}`;
      const [symbol, paint] =
        event.tool_name === 'finish'
          ? [c.green('✔'), c.green]
          : event.tool_name === 'think'
            ? [c.magenta('✎'), c.magenta]
            : [c.yellow('⚙'), c.yellow];
      const title = valid ? c.bold(paint(event.tool_name)) : c.bold(c.red(`${event.tool_name} (invalid call)`));
      lines.push(
        `${valid ? symbol : c.red('✖')} ${title}${summary === '' ? '' : ` ${c.dim(summary)}`}${c.dim(risk)}${lines.length === 0 ? tag : ''}`,
      );
      lines.push(...body(toolArgumentLines(event, c)));
      return lines;
    }
    case 'ObservationEvent': {
      const failed = event.observation.is_error === true;
      // finish and think echo their action, which is already shown.
      if (!failed && QUIET_OBSERVATIONS.has(event.observation.kind)) return undefined;
      const exit = typeof event.observation.exit_code === 'number' ? `exit ${event.observation.exit_code}` : '';
      const head = failed
        ? header(c.red('✖'), c.red(`${event.tool_name} failed`), exit)
        : header(c.dim('↳'), event.tool_name, exit);
      return [head, ...body(excerpt(observationText(event.observation) + contentText(event.extended_content), c))];
    }
    case 'UserRejectObservation':
      return [
        header(
          c.yellow('✋'),
          c.yellow(`Rejected ${event.tool_name}`),
          event.rejection_source === 'hook' ? 'by a hook' : 'by the user',
        ),
        ...body([event.rejection_reason]),
      ];
    case 'AgentErrorEvent':
      return [
        header(c.red('✖'), c.bold(c.red(`Error in ${event.tool_name}`))),
        ...body(excerpt(event.error, c, { plain: true }).map((l) => c.red(l))),
      ];
    case 'ConversationErrorEvent':
    case 'ServerErrorEvent':
      return [
        header(c.red('✖'), c.bold(c.red(event.code))),
        ...body(excerpt(event.detail, c, { plain: true }).map((l) => c.red(l))),
      ];
    case 'Condensation': {
      const forgot = `forgot ${event.forgotten_event_ids.length} event${event.forgotten_event_ids.length === 1 ? '' : 's'}`;
      return [
        header(c.magenta('⧉'), c.magenta('Condensation'), forgot),
        ...body(excerpt(event.summary ?? '', c, { head: 8, tail: 2, plain: true }).map((l) => c.dim(l))),
      ];
    }
    case 'CondensationSummaryEvent':
      return [
        header(c.magenta('⧉'), c.magenta('Summary')),
        ...body(excerpt(event.summary, c, { head: 8, tail: 2, plain: true })),
      ];
    case 'CondensationRequest':
      return [header(c.magenta('⧉'), c.dim('Condensation requested'))];
    case 'ConversationStateUpdateEvent':
      return stateUpdate(event.key, event.value, c, tag);
    case 'PauseEvent':
      return [header(c.yellow('‖'), c.yellow('Paused'))];
    case 'InterruptEvent':
      return [header(c.yellow('‖'), c.yellow('Interrupted'))];
    case 'HookExecutionEvent': {
      const outcome = event.blocked
        ? `blocked${event.reason || event.stderr.trim() ? `: ${oneLine(event.reason || event.stderr.trim(), 80)}` : ''}`
        : event.success
          ? 'ok'
          : `failed (exit ${event.exit_code})${event.error ? `: ${oneLine(event.error, 80)}` : ''}`;
      return [
        header(c.dim('⚑'), c.dim(`Hook ${event.hook_event_type}`), `${oneLine(event.hook_command, 60)} · ${outcome}`),
      ];
    }
    case 'ACPToolCallEvent':
      return [header(event.is_error ? c.red('⚙') : c.yellow('⚙'), c.bold(event.title), event.status ?? '')];
    case 'OpaqueEvent':
      return [header(c.dim('?'), c.dim(event.opaque_kind), 'event of a kind this version does not know')];
    case 'StreamingDeltaEvent':
    case 'TokenEvent':
    case 'LLMCompletionLogEvent':
      return undefined;
  }
}

function thinking(event: AnyEvent, c: Colors): string[] {
  const text = getEventThinking(event);
  if (text === '') return [];
  return excerpt(text, c, { head: 6, tail: 2, plain: true }).map((line) => c.dim(c.italic(line)));
}

/** State changes are shown quietly: status and title only (stats change every step). */
function stateUpdate(key: string, value: unknown, c: Colors, tag: string): string[] | undefined {
  if (key === 'execution_status' && typeof value === 'string') {
    const color = value === 'error' || value === 'stuck' ? c.red : value === 'finished' ? c.green : c.dim;
    return [`${c.dim('·')} ${c.dim('status')} ${color(value)}${tag}`];
  }
  if (key === 'title' && typeof value === 'string') return [`${c.dim('·')} ${c.dim('title')} ${value}${tag}`];
  if (key === 'confirmation_policy' && typeof value === 'object' && value !== null && 'kind' in value) {
    return [`${c.dim('·')} ${c.dim('confirmation policy')} ${String(value.kind)}${tag}`];
  }
  return undefined;
}
