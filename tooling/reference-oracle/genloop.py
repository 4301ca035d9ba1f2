"""Conversations the reference writes through its own LocalConversation and Agent loop, with its own tools.

Usage: genloop.py <out dir> <first seed> <end seed>
A scripted LLM (no network) answers each step with random tool calls of the tools the agent was given (file editor,
task tracker, glob, grep, sometimes the terminal; think and finish always), texts and reasoning; the tools really
run, in a working directory per seed. Half the agents have an LLMSummarizingCondenser (its summaries come from the
same scripted LLM); some conversations confirm every or risky action (rejected half the time), have an iteration
limit of 1 to 4, or are paused. Its response ids restart at `resp-1` with each LLM object, as a provider that reuses
ids does (refresume.py's continuations then repeat ids of batches a condensation forgot).
So that the loop writes every kind it can, from a second random generator per seed:
- the scripted LLM sometimes fails as a provider does after its retries (context window exceeded: a condensation
  request, or a conversation error without a condenser; rate limits, unavailability, any exception: conversation
  errors; malformed history; a function-call validation error and a content-policy block: user messages), answers
  with nothing (the environment's nudge), calls a tool that does not exist, with arguments that are not JSON or do not
  validate (AgentErrorEvents), repeats one call (the stuck detector's nudge and stop), or returns token ids (TokenEvent);
- its responses carry costs, latencies and token usages, recorded as the reference's Telemetry records them;
- command hooks of every type (PreToolUse blocking by exit code 2 or a JSON deny: UserRejectObservations from a hook;
  PostToolUse; UserPromptSubmit adding context or blocking the message; Stop denying once; SessionStart/End);
- iteration limits per run (MaxIterationsReached) and budgets (MaxBudgetReached), secrets at the start and updates of
  the secret registry between turns, stuck detection off;
- a last turn left waiting for confirmation (the continuation runs the pending calls, or rejects hook-blocked ones);
- pauses while idle, after a rejection and mid-run (PauseEvent), the async loop (arun) and interrupts of it
  (InterruptEvent, and AgentErrorEvents for the calls it cut off), a user's condensation request (condense());
- what the agent server streams into the log: ConversationStateUpdateEvent(key="stats") per response,
  LLMCompletionLogEvent, and a /goal loop's ConversationStateUpdateEvent(key="goal").
GENLOOP_ARUN=1 runs every conversation with arun; GENLOOP_PENDING=1 gives every one hooks and AlwaysConfirm and leaves
its last turn waiting for confirmation.
Output: <out dir>/convs/<id as 32 hex>/ (base_state.json, events/) and <out dir>/ws_<seed>/; the ids on stdout.
filelock is replaced by a no-op lock (it is not installed here; the stub's Timeout is no exception class).
"""
import sys, os, uuid, json, random, asyncio
os.environ['OPENHANDS_SUPPRESS_BANNER'] = '1'
REF = os.environ.get('REFERENCE_DIR', '/tmp/ref')
HERE = os.environ.get('ORACLE_DIR', os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(REF, 'openhands-sdk')); sys.path.insert(0, os.path.join(REF, 'openhands-tools')); sys.path.insert(0, HERE)
import stubs, types
_fl = types.ModuleType('filelock')
class Timeout(Exception): pass
class FileLock:
    def __init__(self, *a, **k): pass
    def acquire(self, *a, **k): return self
    def release(self, *a, **k): pass
    def __enter__(self): return self
    def __exit__(self, *a): return False
_fl.Timeout = Timeout; _fl.FileLock = FileLock; _fl.SoftFileLock = FileLock
sys.modules['filelock'] = _fl
stubs.install(["litellm","rich","acp","deprecation","fakeredis","fastmcp","mcp","filelock","httpx","jsonschema","joserfc","PIL","frontmatter","pythonjsonlogger","tenacity","websockets","lmnr","tree_sitter","tree_sitter_bash","opentelemetry","openai","anthropic","tiktoken","requests","docker","psutil","libtmux","bashlex","binaryornot","cachetools","tokenizers","boto3","botocore","google"]); stubs.install_fallback()
import logging; logging.disable(logging.CRITICAL)
import openhands.sdk
from openhands.sdk.agent import Agent
from openhands.sdk.llm import LLM, Message, TextContent, MessageToolCall
from openhands.sdk.llm.llm_response import LLMResponse
from openhands.sdk.llm.utils.metrics import MetricsSnapshot
from openhands.sdk.conversation import Conversation
from openhands.sdk.tool import Tool
from openhands.sdk.context.condenser import LLMSummarizingCondenser
from openhands.sdk.security.confirmation_policy import AlwaysConfirm, ConfirmRisky
from openhands.sdk.llm.exceptions import (LLMContextWindowExceedError, FunctionCallValidationError,
    LLMContentPolicyViolationError, LLMRateLimitError, LLMMalformedConversationHistoryError, LLMServiceUnavailableError)
from openhands.sdk.event import ConversationStateUpdateEvent, LLMCompletionLogEvent
from openhands.sdk.conversation.goal.controller import GoalStatus
from openhands.sdk.conversation.goal.judge import GoalVerdict
from openhands.sdk.hooks.config import HookConfig, HookMatcher, HookDefinition

from openhands.sdk.tool.builtins import FinishTool, ThinkTool
from openhands.tools.file_editor import FileEditorTool
from openhands.tools.task_tracker import TaskTrackerTool
from openhands.tools.terminal import TerminalTool
from openhands.tools.glob import GlobTool
from openhands.tools.grep import GrepTool
from pydantic import PrivateAttr
from openhands.sdk.io.local import LocalFileStore
_init = LocalFileStore.__init__
def _patched(self, *a, **k):
    _init(self, *a, **k); self.cache = {}
LocalFileStore.__init__ = _patched

WORDS = ['alpha', 'βeta', 'γάμμα', '日本語', 'emoji 😀', 'line\nbreak', 'tab\t', 'quote "q"', "it's", '\u2028sep', 'back\\slash']
def words(rng, n=None):
    return ' '.join(rng.choice(WORDS) for _ in range(n or rng.randint(1, 6)))

class ScriptLLM(LLM):
    _rng: object = PrivateAttr(default=None)
    _n: int = PrivateAttr(default=0)
    _ws: str = PrivateAttr(default='')
    _faults: float = PrivateAttr(default=0.0)
    _on_log: object = PrivateAttr(default=None)
    _on_stats: object = PrivateAttr(default=None)
    _repeat: object = PrivateAttr(default=None)
    def uses_responses_api(self): return False
    async def acompletion(self, messages, tools=None, **kw):
        return self.completion(messages, tools=tools, **kw)
    def record(self, rid, rng):
        # What the reference's Telemetry.on_response records for a response, then its stats callback (the agent
        # server's streams a ConversationStateUpdateEvent(key="stats") into the log through it).
        m = self.metrics
        m.add_response_latency(rng.choice([0.0, 1.5e-05, 0.25, 3.0, 12.345678]), rid)
        if rng.random() < 0.8: m.add_cost(rng.choice([0.01, 1e-05, 0.1 + 0.2, 2.5e-07, 3.0]))
        if rng.random() < 0.7: m.add_token_usage(rng.randint(1, 5000), rng.randint(0, 900), rng.randint(0, 50), 0, 128000, rid, reasoning_tokens=rng.randint(0, 3))
        cb = self.telemetry._stats_update_callback or self._on_stats
        if cb is not None: cb()
        if self._on_log is not None: self._on_log(self, rid)
    def fault(self, rng, has_tools):
        # Errors a provider (after the LLM's own retries) or the response conversion raise, as the reference's agent
        # loop sees them: condensation requests, user and environment nudges, conversation errors.
        if rng.random() >= self._faults: return None
        f = rng.choice(['ctx', 'ctx', 'fcv', 'policy', 'rate', 'unavail', 'history', 'runtime', 'empty'] + (['unknown', 'badjson', 'badargs', 'badargs'] if has_tools else []))
        if f == 'ctx': raise LLMContextWindowExceedError()
        if f == 'fcv': raise FunctionCallValidationError('Function call validation failed: ' + words(rng))
        if f == 'policy': raise LLMContentPolicyViolationError('blocked ' + words(rng))
        if f == 'rate': raise LLMRateLimitError()
        if f == 'unavail': raise LLMServiceUnavailableError('unavailable ' + words(rng))
        if f == 'history': raise LLMMalformedConversationHistoryError('bad history ' + words(rng))
        if f == 'runtime': raise RuntimeError('provider exploded ' + words(rng))
        return f
    def vision_is_active(self): return True
    def completion(self, messages, tools=None, **kw):
        rng = self._rng; self._n += 1
        calls = []
        names = [t.name for t in (tools or [])]
        if not names:
            snap = MetricsSnapshot(model_name=self.model, accumulated_cost=0.0)
            return LLMResponse.model_construct(message=Message(role='assistant', content=[TextContent(text='SUMMARY ' + words(rng))]), metrics=snap, raw_response=type('R', (), {'id': 'sum-%d' % self._n})())
        rid = 'resp-%d' % self._n
        if self._repeat is not None and self._n <= 9:
            # The same call again and again (a valid one, or one the agent rejects): the stuck detector's nudge after an
            # error streak, then its stop (status "stuck").
            name, arguments = self._repeat
            call = MessageToolCall(id='call_%d_0_%s' % (self._n, uuid.uuid4().hex[:6]), name=name, arguments=arguments, origin='completion')
            self.record(rid, rng)
            return LLMResponse.model_construct(message=Message(role='assistant', content=[], tool_calls=[call]), metrics=MetricsSnapshot(model_name=self.model, accumulated_cost=0.0), raw_response=type('R', (), {'id': rid})())
        f = self.fault(rng, len(names) > 2)
        if f == 'empty':
            self.record(rid, rng)
            return LLMResponse.model_construct(message=Message(role='assistant', content=[]), metrics=MetricsSnapshot(model_name=self.model, accumulated_cost=0.0), raw_response=type('R', (), {'id': rid})())
        finish = self._n > rng.randint(2, 6)
        k = 0 if rng.random() < 0.15 else rng.randint(1, 3)
        if finish: k = 1
        if f: k = max(k, 1)
        for i in range(k):
            name = 'finish' if finish else rng.choice([n for n in names if n != 'finish'])
            args = self.args(name, rng)
            if f and i == 0:
                if f == 'unknown': name = rng.choice(['nonexistent_tool', 'Terminal', 'str_replace_editor'])
                if f == 'badargs': args = {'nope': words(rng)} if rng.random() < 0.5 else {'command': 12}
                if f == 'badjson':
                    calls.append(MessageToolCall(id='call_%d_%d_%s' % (self._n, i, uuid.uuid4().hex[:6]), name=name, arguments=rng.choice(['{"command": "view", ', 'not json', '', '{"a": 1}}']), origin='completion'))
                    continue
            if rng.random() < 0.5: args['security_risk'] = rng.choice(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN'])
            if rng.random() < 0.5: args['summary'] = words(rng)
            calls.append(MessageToolCall(id='call_%d_%d_%s' % (self._n, i, uuid.uuid4().hex[:6]), name=name, arguments=json.dumps(args, ensure_ascii=rng.random() < 0.5), origin='completion'))
        content = [TextContent(text=words(rng))] if (rng.random() < 0.7 or not calls) else []
        msg = Message(role='assistant', content=content, tool_calls=calls or None,
                      reasoning_content=words(rng) if rng.random() < 0.3 else None)
        snap = MetricsSnapshot(model_name=self.model, accumulated_cost=0.01 * self._n)
        self.record(rid, rng)
        raw = type('R', (dict,), {'id': rid})()
        if self.litellm_extra_body.get('return_token_ids'):
            raw['prompt_token_ids'] = [rng.randint(0, 200000) for _ in range(rng.randint(0, 6))]
            raw['choices'] = [{'provider_specific_fields': {'token_ids': [rng.randint(0, 200000) for _ in range(rng.randint(0, 4))]}}]
        return LLMResponse.model_construct(message=msg, metrics=snap, raw_response=raw)
    def args(self, name, rng):
        ws = self._ws
        if name == 'terminal':
            return {'command': rng.choice(['echo %s' % words(rng), 'ls -la', 'printf "a\\nb"', 'false', 'cat nonexist', 'seq 1 %d' % rng.randint(1, 3000), 'python3 -c "print(\'é\'*40000)"'])}
        if name == 'file_editor':
            p = os.path.join(ws, rng.choice(['a.txt', 'b.py', 'dir/c.md', 'missing.txt']))
            c = rng.choice(['view', 'create', 'str_replace', 'insert', 'undo_edit', 'view'])
            if c == 'view': return {'command': c, 'path': rng.choice([p, ws])}
            if c == 'create': return {'command': c, 'path': p, 'file_text': words(rng, 10)}
            if c == 'str_replace': return {'command': c, 'path': p, 'old_str': rng.choice(WORDS), 'new_str': words(rng)}
            if c == 'insert': return {'command': c, 'path': p, 'insert_line': rng.randint(0, 3), 'new_str': words(rng)}
            return {'command': c, 'path': p}
        if name == 'task_tracker':
            if rng.random() < 0.3: return {'command': 'view'}
            return {'command': 'plan', 'task_list': [{'title': words(rng), 'notes': words(rng), 'status': rng.choice(['todo', 'in_progress', 'done'])} for _ in range(rng.randint(0, 3))]}
        if name == 'glob': return {'pattern': rng.choice(['*', '**/*.py', 'nomatch*'])}
        if name == 'grep': return {'pattern': rng.choice(['a', 'é', 'zzz', '(', '[a-']), **({'include': '*.txt'} if rng.random() < 0.3 else {})}
        if name == 'think': return {'thought': words(rng)}
        if name == 'finish': return {'message': words(rng)}
        return {}

HOOK_PY = 'python3 -c "%s"'
def hook_config(xr):
    """Command hooks of every event type the reference runs; some block (exit 2, or a JSON deny), add context, fail."""
    def h(code, **k): return HookDefinition(command=HOOK_PY % code, **k)
    pre = [h("import sys,json; d=json.load(sys.stdin); s=json.dumps(d.get('tool_input'), ensure_ascii=False); "
             "print('blocked: ' + s[:40], file=sys.stderr) or sys.exit(2) if 'alpha' in s else "
             "print(json.dumps({'decision': 'deny', 'reason': 'no \\u03b3 here'})) if '\\u03b3' in s else print('pre ok')")]
    if xr.random() < 0.3: pre.append(HookDefinition(command='echo pre2; echo warn >&2; exit 1'))
    post = [HookDefinition(command='echo post \u00e9; echo "{\\"additionalContext\\": \\"seen\\"}" >&2')]
    prompt = [h("import sys,json; d=json.load(sys.stdin); m=d.get('message') or ''; "
                "print(json.dumps({'decision': 'deny', 'reason': 'no emoji'})) if '\\U0001f600' in m else "
                "print(json.dumps({'additionalContext': 'hook context for ' + m[:20]}))")]
    stop = [HookDefinition(command='test -f .stop_once && echo stop-ok || { touch .stop_once; echo "{\\"decision\\": \\"deny\\", \\"additionalContext\\": \\"check again\\"}"; }')]
    cfg = {}
    if xr.random() < 0.8: cfg['pre_tool_use'] = [HookMatcher(matcher=xr.choice(['*', 'file_editor|task_tracker', 'think']), hooks=pre)]
    if xr.random() < 0.5: cfg['post_tool_use'] = [HookMatcher(matcher='*', hooks=post)]
    if xr.random() < 0.6: cfg['user_prompt_submit'] = [HookMatcher(hooks=prompt)]
    if xr.random() < 0.4: cfg['stop'] = [HookMatcher(hooks=stop)]
    if xr.random() < 0.4: cfg['session_start'] = [HookMatcher(hooks=[HookDefinition(command='echo started')])]
    if xr.random() < 0.4: cfg['session_end'] = [HookMatcher(hooks=[HookDefinition(command='echo ended; exit 3')])]
    return HookConfig(**cfg)

def goal_event(xr, it, status):
    verdict = GoalVerdict(score=xr.choice([0.0, 0.35, 1.0]), complete=status == 'complete', missing=words(xr)) if status != 'running' and xr.random() < 0.7 else None
    return ConversationStateUpdateEvent(key='goal', value=GoalStatus(active=status == 'running', status=status, iteration=it, max_iterations=5, objective=words(xr), verdict=verdict).model_dump())

def run(seed, out):
    rng = random.Random(seed)
    # The extras (hooks, faults, limits, pauses, state updates, secrets) draw from their own generator.
    xr = random.Random(seed * 7919 + 17)
    ws = os.path.join(out, 'ws_%05d' % seed); os.makedirs(ws, exist_ok=True)
    llm = ScriptLLM(model='gpt-4o', usage_id='agent', **({'litellm_extra_body': {'return_token_ids': True}} if xr.random() < 0.1 else {}))
    llm._rng = rng; llm._ws = ws
    llm._faults = xr.choice([0.0, 0.0, 0.1, 0.3])
    if xr.random() < 0.1:
        llm._repeat = xr.choice([('think', json.dumps({'thought': 'again'})), ('think', json.dumps({'nope': 1})), ('nonexistent_tool', '{}'), ('think', '{"thought": ')])
    tools = [Tool(name=c.name) for c in rng.sample([FileEditorTool, TaskTrackerTool, GlobTool, GrepTool] + ([TerminalTool] if rng.random() < 0.15 else []), rng.randint(0, 4))]
    cond = None
    if rng.random() < 0.5:
        cl = ScriptLLM(model='gpt-4o-mini', usage_id='condenser'); cl._rng = rng; cl._ws = ws
        cond = LLMSummarizingCondenser(llm=cl, max_size=rng.randint(8, 14), keep_first=rng.randint(1, 2))
    agent = Agent(llm=llm, tools=tools, condenser=cond)
    cid = uuid.UUID(int=rng.getrandbits(128), version=4)
    holder = {}
    def on_event(e):
        # A user pausing while the loop runs (between events, as a pause from another thread lands).
        c = holder.get('conv')
        if c is not None and holder.get('interrupt_mid') and type(e).__name__ == 'ActionEvent' and xr.random() < 0.5:
            c.interrupt()                           # an interrupt while arun() runs: the pending calls get errors
        if c is not None and holder.get('pause_mid') and type(e).__name__ in ('ObservationEvent', 'AgentErrorEvent', 'UserRejectObservation') and xr.random() < 0.3:
            c.pause()
    kw = {}
    pending = 'GENLOOP_PENDING' in os.environ
    if xr.random() < 0.3 or pending: kw['hook_config'] = hook_config(xr)
    if xr.random() < 0.3: kw['max_iteration_per_run'] = xr.randint(1, 4)
    budget = xr.choice([0.005, 0.02, 0.5]) if xr.random() < 0.1 else None
    if xr.random() < 0.2: kw['secrets'] = {'API_KEY': 'sk-' + uuid.UUID(int=xr.getrandbits(128)).hex, 'TOKEN_\u00e9': words(xr)}
    if xr.random() < 0.15: kw['stuck_detection'] = False
    conv = Conversation(agent=agent, workspace=ws, persistence_dir=os.path.join(out, 'convs'), conversation_id=cid, visualizer=None, callbacks=[on_event], **kw)
    # The registry tracks LLMs whose type is exactly LLM: register the scripted ones as it registers those, so the
    # conversation's stats (base_state.json, budgets, stats updates) hold their costs, latencies and token usages.
    conv._ensure_agent_ready()
    for l in [llm] + ([cond.llm] if cond is not None else []):
        if l.usage_id not in conv.llm_registry.list_usage_ids(): conv.llm_registry.add(l)
    if budget is not None: conv.max_budget_per_run = budget  # the Conversation factory does not pass it on
    holder['conv'] = conv; holder['pause_mid'] = xr.random() < 0.2
    use_arun = xr.random() < 0.2 or 'GENLOOP_ARUN' in os.environ  # the async loop (arun), sometimes interrupted
    # (Not with the terminal: an interrupted call keeps its tmux pane checked out, and the next call waits for it forever.)
    if any(t.name == TerminalTool.name for t in tools): use_arun = False
    holder['interrupt_mid'] = use_arun and xr.random() < 0.6
    if xr.random() < 0.3:
        # The agent server's stats streaming: every response's stats as a ConversationStateUpdateEvent(key="stats").
        def stats_cb():
            conv._on_event(ConversationStateUpdateEvent(key='stats', value=conv._state.stats))
        # (Set on the scripted LLMs: the registry gives each LLM a fresh Telemetry when the agent starts.)
        for l in [llm] + ([cond.llm] if cond is not None else []): l._on_stats = stats_cb
    if xr.random() < 0.15:
        # The agent server's completion-log streaming (LLMCompletionLogEvent), here once per scripted response.
        def log_cb(l, rid):
            conv._on_event(LLMCompletionLogEvent(filename='%s-%s.json' % (l.usage_id, rid), log_data=json.dumps({'response': {'id': rid}, 'cost': l.metrics.accumulated_cost}), model_name=l.model, usage_id=l.usage_id))
        llm._on_log = log_cb
    if rng.random() < 0.4 or pending:
        conv.set_confirmation_policy(AlwaysConfirm() if pending else rng.choice([AlwaysConfirm(), ConfirmRisky()]))
    if rng.random() < 0.3:
        conv.state.max_iterations = rng.randint(1, 4)
    goal = xr.random() < 0.15
    leave_pending = xr.random() < 0.25 or pending            # the last turn ends waiting for confirmation (resumed with pending calls)
    turns = rng.randint(1, 3)
    for turn in range(turns):
        if goal:
            with conv._state: conv._on_event(goal_event(xr, turn, 'running'))
        if xr.random() < 0.15: conv.update_secrets({'SECRET_%d' % turn: words(xr)})
        conv.send_message(words(rng))
        if xr.random() < 0.15: conv.pause()            # paused while idle, before the run (the run resumes it)
        for _ in range(4):
            try:
                if use_arun: asyncio.run(conv.arun())
                else: conv.run()
            except Exception as e:
                print('seed', seed, 'run error', type(e).__name__, str(e)[:120], file=sys.stderr)
            st = conv.state.execution_status.value
            if st == 'waiting_for_confirmation':
                if leave_pending and turn == turns - 1: break
                if rng.random() < 0.5:
                    conv.reject_pending_actions(words(rng))
                    if xr.random() < 0.3: conv.pause()  # paused after a rejection left it idle
                continue
            if st in ('error', 'stuck') and xr.random() < 0.5: continue
            break
        if leave_pending and turn == turns - 1 and conv.state.execution_status.value == 'waiting_for_confirmation': break
        if cond is not None and xr.random() < 0.2:
            try: conv.condense()                    # a user's condensation request, and the step that handles it
            except Exception as e: print('seed', seed, 'condense error', type(e).__name__, str(e)[:120], file=sys.stderr)
        if rng.random() < 0.2: conv.pause()
    if goal:
        with conv._state: conv._on_event(goal_event(xr, 3, xr.choice(['complete', 'capped', 'interrupted'])))
    conv.close()
    return cid

out = sys.argv[1]
for s in range(int(sys.argv[2]), int(sys.argv[3])):
    try: print(run(s, out).hex)
    except Exception as e:
        import traceback; traceback.print_exc()
        print('seed', s, type(e).__name__, str(e)[:300], file=sys.stderr)
