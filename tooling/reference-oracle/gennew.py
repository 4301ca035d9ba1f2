"""A conversation the reference created and never messaged, as its ConversationState.create leaves it.

Usage: gennew.py <out dir> <conversation id>  -> <out dir>/<id as 32 hex>/base_state.json (and nothing else: the
reference writes its SystemPromptEvent at the first send_message or run, in Agent.init_state).
"""
import sys, os, uuid
os.environ['OPENHANDS_SUPPRESS_BANNER'] = '1'
REF = os.environ.get('REFERENCE_DIR', '/tmp/ref')
sys.path.insert(0, os.path.join(REF, 'openhands-sdk')); sys.path.insert(0, os.path.join(REF, 'openhands-tools')); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stubs
stubs.install(["litellm","rich","acp","deprecation","fakeredis","fastmcp","mcp","filelock","httpx","jsonschema","joserfc","PIL","frontmatter","pythonjsonlogger","tenacity","websockets","lmnr","tree_sitter","tree_sitter_bash","opentelemetry","openai","anthropic","tiktoken","jinja2","yaml","requests","docker","psutil","libtmux","bashlex","binaryornot","cachetools","tokenizers","boto3","botocore","google"]); stubs.install_fallback()
import logging; logging.disable(logging.CRITICAL)
import openhands.sdk
from openhands.sdk.agent import Agent
from openhands.sdk.conversation.state import ConversationState
from openhands.sdk.io.local import LocalFileStore
from openhands.sdk.llm import LLM
from openhands.sdk.workspace import LocalWorkspace

out, cid = sys.argv[1], uuid.UUID(sys.argv[2])
fs = LocalFileStore(os.path.join(out, cid.hex))
fs.cache = {}  # the stubbed cachetools gives no working LRU cache; a dict caches the same
agent = Agent(llm=LLM(model='gpt-4o', usage_id='agent'), tools=[])
ConversationState.create(
    id=cid,
    agent=agent,
    workspace=LocalWorkspace(working_dir='/workspace/project'),
    # Recorded as given; the files go to `fs`.
    persistence_dir='/root/.openhands/conversations/' + cid.hex,
    file_store=fs,
)
print(sorted(os.listdir(os.path.join(out, cid.hex))), file=sys.stderr)
