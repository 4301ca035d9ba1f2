"""Derive what the OpenHands reference (611629e6) makes of a conversation directory.

Usage: refderive.py <conversation dir> [...]  -> JSON per dir on stdout (one line each).
"""
import sys, os, json, glob
os.environ['OPENHANDS_SUPPRESS_BANNER'] = '1'
REF = os.environ.get('REFERENCE_DIR', '/tmp/ref')
sys.path.insert(0, os.path.join(REF, 'openhands-sdk')); sys.path.insert(0, os.path.join(REF, 'openhands-tools')); sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import stubs
stubs.install(["litellm","rich","acp","deprecation","fakeredis","fastmcp","mcp","filelock","httpx","jsonschema","joserfc","PIL","frontmatter","pythonjsonlogger","tenacity","websockets","lmnr","tree_sitter","tree_sitter_bash","opentelemetry","openai","anthropic","tiktoken","jinja2","yaml","requests","docker","psutil","libtmux","bashlex","binaryornot","cachetools","tokenizers","boto3","botocore","google"]); stubs.install_fallback()
import logging; logging.disable(logging.CRITICAL)
import openhands.sdk
from openhands.sdk.event.base import Event, LLMConvertibleEvent
from openhands.sdk.context.view import View
import importlib
for mod in ['openhands.tools.terminal', 'openhands.tools.file_editor', 'openhands.tools.task_tracker', 'openhands.tools.glob', 'openhands.tools.grep', 'openhands.tools.apply_patch', 'openhands.tools.delegate', 'openhands.tools.browser_use', 'openhands.tools.planning_file_editor', 'openhands.tools.gemini', 'openhands.tools.tom_consult', 'openhands.tools.task']:
    try: importlib.import_module(mod)
    except Exception as e: print(f'# could not import {mod}: {type(e).__name__}: {e}', file=sys.stderr)

def derive(d):
    files = sorted(glob.glob(os.path.join(d, 'events', 'event-*.json')))
    out = {'dir': d, 'errors': []}
    events = []
    for f in files:
        try:
            events.append(Event.model_validate_json(open(f).read()))
        except Exception as e:
            out['errors'].append({'file': os.path.basename(f), 'error': str(e)[:2000]})
    out['event_count'] = len(events)
    out['kinds'] = [type(e).__name__ for e in events]
    try:
        view = View.from_events(events)
        out['view_event_ids'] = [e.id for e in view.events]
        out['llm_visible_event_ids'] = [e.id for e in view.events if type(e).__name__ != 'CondensationSummaryEvent']
        out['unhandled_condensation_request'] = view.unhandled_condensation_request
        try:
            out['manipulation_indices'] = sorted(view.manipulation_indices)
        except Exception as e:
            out['manipulation_indices'] = 'error: ' + type(e).__name__
        msgs = LLMConvertibleEvent.events_to_messages(list(view.events))
        out['messages'] = [m.to_chat_dict(cache_enabled=False, vision_enabled=True, function_calling_enabled=True, force_string_serializer=False, send_reasoning_content=False) for m in msgs]
        out['messages_string_form'] = [m.to_chat_dict(cache_enabled=False, vision_enabled=False, function_calling_enabled=False, force_string_serializer=True, send_reasoning_content=False) for m in msgs]
        # The other switches: caching alone (list form, images dropped) with reasoning_content sent, and the
        # Responses input without vision.
        out['messages_cache_reasoning'] = [m.to_chat_dict(cache_enabled=True, vision_enabled=False, function_calling_enabled=False, force_string_serializer=False, send_reasoning_content=True) for m in msgs]
        out['responses_no_vision'] = [i for m in msgs if not isinstance(v := m.to_responses_value(vision_enabled=False), str) for i in v]
        instructions, items = None, []
        for m in msgs:
            val = m.to_responses_value(vision_enabled=True)
            if isinstance(val, str):
                t = val.strip()
                if t: instructions = t if instructions is None else f"{instructions}\n\n---\n\n{t}"
            elif val:
                items.extend(val)
        out['responses'] = {'instructions': instructions, 'input': items}
        # Round trip: the reference writes back what it read
        out['reserialized'] = [json.loads(e.model_dump_json(exclude_none=True)) for e in events]
    except Exception as e:
        import traceback
        out['derive_error'] = traceback.format_exc()[-3000:]
    return out

for d in sys.argv[1:]:
    print(json.dumps(derive(d), default=str))
