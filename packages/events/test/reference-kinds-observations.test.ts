import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createEvent,
  eventToJson,
  eventToLlmMessage,
  type ObservationEvent,
  parseEventJson,
  serializeEvent,
  truncateNotice,
} from '../src/index.js';
import { pythonLineCount, pythonPosixJoin } from '../src/registry/reference-kinds/python-text.js';
import { sha256Hex } from '../src/registry/reference-kinds/sha256-hex.js';
import { pythonPercent } from '../src/registry/reference-kinds/tool-observation-kinds.js';
import { type FieldSets, payloadProblems } from '../src/testing/index.js';

/**
 * Observations of reference tools whose `to_llm_content` is their own (terminal with a save directory, browser,
 * sub-agent task, ToM), as the reference writes them, with every optional field set and with none. Expected texts
 * (hashes, cut positions, line numbers) were computed by running the reference's own `maybe_truncate`
 * (openhands/sdk/utils/truncate.py at 611629e6) on the same inputs.
 */
const sets: FieldSets = JSON.parse(
  readFileSync(join(import.meta.dirname, '__fixtures__', 'reference-field-sets.json'), 'utf8'),
);

const text = (value: string) => ({ cache_prompt: false, type: 'text' as const, text: value });

function observationEventText(toolName: string, observation: Record<string, unknown>): string {
  return JSON.stringify({
    id: '5d0a119a-4480-4823-ae91-0fc42e5b10ca',
    timestamp: '2026-08-22T16:34:54.123456',
    source: 'environment',
    parent_id: '3703cba3-d179-4f84-bc21-8121b24c01be',
    tool_name: toolName,
    tool_call_id: 'call_1',
    observation,
    action_id: '3703cba3-d179-4f84-bc21-8121b24c01be',
    extended_content: [],
    kind: 'ObservationEvent',
  });
}

/** Parses the reference's text, checks it is written back byte for byte, and returns the tool message's content. */
function rendered(toolName: string, observation: Record<string, unknown>) {
  const source = observationEventText(toolName, observation);
  const event = parseEventJson(source);
  expect(serializeEvent(event)).toBe(source);
  expect(payloadProblems(sets, observation)).toEqual([]);
  const message = eventToLlmMessage(event);
  expect(message).toMatchObject({ role: 'tool', name: toolName, tool_call_id: 'call_1' });
  return message?.content;
}

const terminalLines = Array.from({ length: 4000 }, (_, i) => `line ${String(i).padStart(5, '0')}\n`).join('');
const terminalMetadata = {
  exit_code: 0,
  pid: -1,
  username: 'openhands',
  hostname: 'box',
  working_dir: '/w',
  prefix: '',
  suffix: '',
};

describe('TerminalObservation with a save directory', () => {
  it('names the file the reference saved the full output in, and the line the cut starts around', () => {
    const content = rendered('terminal', {
      content: [text(terminalLines)],
      is_error: false,
      command: 'seq',
      exit_code: 0,
      timeout: false,
      metadata: terminalMetadata,
      full_output_save_dir: '/tmp/refpy/save//terminal/',
      kind: 'TerminalObservation',
    });
    const full = `${terminalLines}\n[Current working directory: /w]\n[Command finished with exit code 0]`;
    const notice =
      '<response clipped><NOTE>Due to the max output limit, only part of the full response has been shown to you. ' +
      'The complete output has been saved to /tmp/refpy/save/terminal/terminal_output_6524f82c.txt - you can use ' +
      'other tools to view the full content (truncated part starts around line 1360).</NOTE>';
    expect(content).toEqual([text(full.slice(0, 14944) + notice + full.slice(-14758))]);
  });

  it('uses the plain notice without one (all optional fields absent)', () => {
    const content = rendered('terminal', {
      content: [text(terminalLines)],
      is_error: true,
      command: 'seq',
      timeout: false,
      metadata: { exit_code: -1, pid: -1, prefix: '', suffix: '' },
      kind: 'TerminalObservation',
    });
    expect(content).toEqual([
      text('[An error occurred during execution.]\n'),
      text(terminalLines.slice(0, 14944) + truncateNotice + terminalLines.slice(-14943)),
    ]);
  });
});

const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const browserText = Array.from({ length: 6000 }, (_, i) => `row ${String(i).padStart(6, '0')}\r\n`).join('');

describe('BrowserObservation', () => {
  it('with every field: truncated text naming the saved output, the saved screenshot, then the image', () => {
    const content = rendered('browser_get_state', {
      content: [
        text(browserText.slice(0, 100)),
        { cache_prompt: false, type: 'image', image_urls: ['https://x/y.png'] },
        text(browserText.slice(100)),
      ],
      is_error: true,
      screenshot_data: png,
      full_output_save_dir: '/tmp/refpy/save/browser',
      kind: 'BrowserObservation',
    });
    const notice =
      '<response clipped><NOTE>Due to the max output limit, only part of the full response has been shown to you. ' +
      'The complete output has been saved to /tmp/refpy/save/browser/browser_output_af84f465.txt - you can use ' +
      'other tools to view the full content (truncated part starts around line 2080).</NOTE>';
    expect(content).toEqual([
      text('[An error occurred during execution.]\n'),
      text(browserText.slice(0, 24944) + notice + browserText.slice(-24760)),
      text('Screenshot saved to: /tmp/refpy/save/browser/browser_screenshot_e427046b.png'),
      { cache_prompt: false, type: 'image', image_urls: [`data:image/png;base64,${png}`] },
    ]);
  });

  it('with no optional field: the text alone; images in content are not sent', () => {
    const content = rendered('browser_navigate', {
      content: [text('Navigated to https://example.com'), { cache_prompt: false, type: 'image', image_urls: ['u'] }],
      is_error: false,
      kind: 'BrowserObservation',
    });
    expect(content).toEqual([text('Navigated to https://example.com')]);
  });

  it('a screenshot without a save directory, or one Python cannot decode, is sent without a saved path', () => {
    const jpeg = '/9j/4AAQSkZJRgABAQAAAQABAAD';
    expect(
      rendered('browser_get_state', {
        content: [],
        is_error: false,
        screenshot_data: jpeg,
        kind: 'BrowserObservation',
      }),
    ).toEqual([{ cache_prompt: false, type: 'image', image_urls: [`data:image/jpeg;base64,${jpeg}`] }]);
    expect(
      rendered('browser_get_state', {
        content: [],
        is_error: false,
        screenshot_data: jpeg,
        full_output_save_dir: '/s',
        kind: 'BrowserObservation',
      }),
    ).toEqual([{ cache_prompt: false, type: 'image', image_urls: [`data:image/jpeg;base64,${jpeg}`] }]);
  });
  it("names the saved screenshot exactly when Python's lenient b64decode accepts the data", () => {
    // Each answer is what `base64.b64decode(data)` did in CPython 3.11: padding counts only from a quad's third
    // character and is reset by data, completed padding ends the input, other characters are skipped, and a
    // string that is not ASCII is refused whole.
    const python: [string, boolean][] = [
      ['ab=c', false],
      ['a=bcd', true],
      ['abcd==ef', false],
      ['+b=/9ZZ=', false],
      ['ab==', true],
      ['====abcd', true],
      ['QUJD', true],
      ['QUJD\u65e5', false],
      ['QQ==\u00e9', false],
      ['Q!Q=.=', true],
      ['QUJ=junk', true],
      ['QQ=Q=', true],
    ];
    for (const [data, decodes] of python) {
      const content = rendered('browser_get_state', {
        content: [],
        is_error: false,
        screenshot_data: data,
        full_output_save_dir: '/s',
        kind: 'BrowserObservation',
      });
      const saved = (content ?? []).some(
        (part) => part.type === 'text' && part.text.startsWith('Screenshot saved to: /s/'),
      );
      expect([data, saved]).toEqual([data, decodes]);
    }
  });
});

describe('TaskObservation', () => {
  it('puts the task line first, then the error header and the content', () => {
    expect(
      rendered('task', {
        content: [text('Found it in src/a.py')],
        is_error: true,
        task_id: 't-1',
        subagent: 'code-explorer',
        status: 'error',
        kind: 'TaskObservation',
      }),
    ).toEqual([
      text('Task ID: t-1\nSubagent: code-explorer\nStatus: error'),
      text('[An error occurred during execution.]\n'),
      text('Found it in src/a.py'),
    ]);
  });
});

describe('ToM observations', () => {
  it('ConsultTomObservation with every field, and with none', () => {
    expect(
      rendered('consult_tom', {
        content: [text('ignored')],
        is_error: false,
        suggestions: 'Ask about tests',
        confidence: 0.855,
        reasoning: 'The user cares about CI',
        kind: 'ConsultTomObservation',
      }),
    ).toEqual([
      text("Tom agent's guidance:\nAsk about tests\n\nReasoning: The user cares about CI\n\nConfidence: 86%"),
    ]);
    expect(
      rendered('consult_tom', { content: [], is_error: false, suggestions: '', kind: 'ConsultTomObservation' }),
    ).toEqual([text('Tom agent did not provide suggestions.')]);
  });

  it('SleeptimeComputeObservation', () => {
    expect(
      rendered('sleeptime_compute', {
        content: [],
        is_error: false,
        message: 'done',
        sessions_processed: 3,
        kind: 'SleeptimeComputeObservation',
      }),
    ).toEqual([text('Successfully indexed 3 conversation(s) for user modeling.\ndone')]);
    expect(
      rendered('sleeptime_compute', {
        content: [],
        is_error: false,
        message: '',
        sessions_processed: 0,
        kind: 'SleeptimeComputeObservation',
      }),
    ).toEqual([text('Sleeptime compute completed.\n')]);
  });
});

describe('what x writes for these kinds', () => {
  it('has only the reference fields (its models forbid extras)', () => {
    const event = createEvent('ObservationEvent', {
      tool_name: 'task',
      tool_call_id: 'c',
      action_id: 'a',
      observation: { content: [text('x')], task_id: 't', subagent: 's', status: 'completed', kind: 'TaskObservation' },
    }) as ObservationEvent;
    expect(payloadProblems(sets, eventToJson(event).observation as Record<string, unknown>)).toEqual([]);
  });
});

describe('Python behaviours mirrored', () => {
  it('sha256 of UTF-8 text', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('héllo ✓ 😀')).toBe('ed48bf1a238c902172191a3a1f46532d86cc20dc6bea2f3f9a90215097b1e10c');
    expect(sha256Hex('a'.repeat(1000))).toBe('41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3');
  });

  it('str(Path(dir) / name), len(str.splitlines()) and the percent format', () => {
    expect(pythonPosixJoin('/tmp/x//obs/./', 'a')).toBe('/tmp/x/obs/a');
    expect(pythonPosixJoin('', 'a')).toBe('a');
    expect(pythonPosixJoin('//h/x/', 'a')).toBe('//h/x/a');
    expect(pythonPosixJoin('a/../b', 'c')).toBe('a/../b/c');
    expect(pythonLineCount('a\u2028b\r\nc\x85')).toBe(3);
    expect(pythonLineCount('')).toBe(0);
    expect(pythonLineCount('\n')).toBe(1);
    expect([0.125, 0.855, -0.004, 0.5, 0.015, 1.005].map(pythonPercent)).toEqual([
      '12%',
      '86%',
      '-0%',
      '50%',
      '2%',
      '100%',
    ]);
  });
});
