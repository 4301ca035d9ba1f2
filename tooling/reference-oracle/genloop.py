"""Conversations the reference writes through its own LocalConversation and Agent loop, with its own tools.

Usage: genloop.py <out dir> <first seed> <end seed>
A scripted LLM (no network) answers each step with random tool calls of the tools the agent was given (file editor,
task tracker, glob, grep, sometimes the terminal; think and finish always), texts and reasoning; the tools really
run, in a working directory per seed. Half the agents have an LLMSummarizingCondenser (its summaries come from the
same scripted LLM); some conversations confirm every or risky action (rejected half the time), have an iteration
limit of 1 to 4, or are paused. Its response ids restart at `resp-1` with each LLM object, as a provider that reuses
ids does (refresume.py's continuations then repeat ids of batches a condensation forgot).
Output: <out dir>/convs/<id as 32 hex>/ (base_state.json, events/) and <out dir>/ws_<seed>/; the ids on stdout.
filelock is replaced by a no-op lock (it is not installed here; the stub's Timeout is no exception class).
"""
import sys, os, uuid, json, random
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
    def uses_responses_api(self): return False
    def vision_is_active(self): return True
    def completion(self, messages, tools=None, **kw):
        rng = self._rng; self._n += 1
        calls = []
        names = [t.name for t in (tools or [])]
        if not names:
            snap = MetricsSnapshot(model_name=self.model, accumulated_cost=0.0)
            return LLMResponse.model_construct(message=Message(role='assistant', content=[TextContent(text='SUMMARY ' + words(rng))]), metrics=snap, raw_response=type('R', (), {'id': 'sum-%d' % self._n})())
        finish = self._n > rng.randint(2, 6)
        k = 0 if rng.random() < 0.15 else rng.randint(1, 3)
        if finish: k = 1
        for i in range(k):
            name = 'finish' if finish else rng.choice([n for n in names if n != 'finish'])
            args = self.args(name, rng)
            if rng.random() < 0.5: args['security_risk'] = rng.choice(['LOW', 'MEDIUM', 'HIGH', 'UNKNOWN'])
            if rng.random() < 0.5: args['summary'] = words(rng)
            calls.append(MessageToolCall(id='call_%d_%d_%s' % (self._n, i, uuid.uuid4().hex[:6]), name=name, arguments=json.dumps(args, ensure_ascii=rng.random() < 0.5), origin='completion'))
        content = [TextContent(text=words(rng))] if (rng.random() < 0.7 or not calls) else []
        msg = Message(role='assistant', content=content, tool_calls=calls or None,
                      reasoning_content=words(rng) if rng.random() < 0.3 else None)
        snap = MetricsSnapshot(model_name=self.model, accumulated_cost=0.01 * self._n)
        return LLMResponse.model_construct(message=msg, metrics=snap, raw_response=type('R', (), {'id': 'resp-%d' % self._n})())
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
        if name == 'grep': return {'pattern': rng.choice(['a', 'é', 'zzz']), **({'include': '*.txt'} if rng.random() < 0.3 else {})}
        if name == 'think': return {'thought': words(rng)}
        if name == 'finish': return {'message': words(rng)}
        return {}

def run(seed, out):
    rng = random.Random(seed)
    ws = os.path.join(out, 'ws_%05d' % seed); os.makedirs(ws, exist_ok=True)
    llm = ScriptLLM(model='gpt-4o', usage_id='agent')
    llm._rng = rng; llm._ws = ws
    tools = [Tool(name=c.name) for c in rng.sample([FileEditorTool, TaskTrackerTool, GlobTool, GrepTool] + ([TerminalTool] if rng.random() < 0.15 else []), rng.randint(0, 4))]
    cond = None
    if rng.random() < 0.5:
        cl = ScriptLLM(model='gpt-4o-mini', usage_id='condenser'); cl._rng = rng; cl._ws = ws
        cond = LLMSummarizingCondenser(llm=cl, max_size=rng.randint(8, 14), keep_first=rng.randint(1, 2))
    agent = Agent(llm=llm, tools=tools, condenser=cond)
    cid = uuid.UUID(int=rng.getrandbits(128), version=4)
    conv = Conversation(agent=agent, workspace=ws, persistence_dir=os.path.join(out, 'convs'), conversation_id=cid, visualizer=None)
    if rng.random() < 0.4:
        conv.set_confirmation_policy(rng.choice([AlwaysConfirm(), ConfirmRisky()]))
    if rng.random() < 0.3:
        conv.state.max_iterations = rng.randint(1, 4)
    for turn in range(rng.randint(1, 3)):
        conv.send_message(words(rng))
        for _ in range(4):
            conv.run()
            st = conv.state.execution_status.value
            if st == 'waiting_for_confirmation':
                if rng.random() < 0.5: conv.reject_pending_actions(words(rng))
                continue
            break
        if rng.random() < 0.2: conv.pause()
    conv.close()
    return cid

out = sys.argv[1]
for s in range(int(sys.argv[2]), int(sys.argv[3])):
    try: print(run(s, out).hex)
    except Exception as e:
        import traceback; traceback.print_exc()
        print('seed', s, type(e).__name__, str(e)[:300], file=sys.stderr)
