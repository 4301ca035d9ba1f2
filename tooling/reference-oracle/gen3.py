"""Write odd-shaped conversation directories with the reference's own models (validated and dumped by it).

Where gen.py draws ordinary turns, gen3.py draws the edges: empty and very long texts in many scripts (lone
controls, astral emoji, line separators, NUL), content lists that are empty or mix several texts and images (some
with `cache_prompt` set), every optional field of messages, actions and observations present or absent (sender,
critic results, error classifications, rejection sources, redacted and unsigned thinking blocks, Responses
reasoning items, `responses_item_id`s), LLM-converted messages (assistant messages carrying tool calls, tool
results as MessageEvents), calls answered twice or never before a user speaks, orphan observations, and
condensations that nest, forget what was already forgotten, forget condensations or unknown ids, and put their
summary past the end of the view.

Usage: gen3.py <out dir> <first seed> <end seed>
"""
import sys, os, json, random, uuid, datetime
import os as _os
exec(open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), 'refderive.py')).read().split('def derive')[0])
from openhands.sdk.event.base import Event

SCRIPTS = ['hello', 'héllo wörld', 'Привет', 'مرحبا', 'שלום', '你好世界', 'こんにちは', '🙂👍🏽👨‍👩‍👧', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
           'e\u0301\u0301', 'a\u2028b\u2029c', 'tab\there', 'nul\x00byte', 'del\x7f', '"quotes" \\ back\\slash',
           '</script><!--', '\r\n', '\x1c\x1d\x1e\x1f', '\ufeffbom', '\u200b\u200d', '  ', '']

from openhands.sdk.tool.tool import ToolDefinition
def _subclasses(c):
    return [d for s in c.__subclasses__() for d in [s] + _subclasses(s)]
TOOL_KINDS = sorted({c.__name__ for c in _subclasses(ToolDefinition) if '[' not in c.__name__ and c.__name__ != 'MCPToolDefinition'})  # mcp's Tool is stubbed here

def run(seed, out):
    rng = random.Random(seed)
    ts = datetime.datetime(2026, 9, 1, 10, 0, 0)
    evs = []
    def add(d):
        nonlocal ts
        ts += datetime.timedelta(milliseconds=rng.randint(1, 900))
        d.setdefault('id', str(uuid.UUID(int=rng.getrandbits(128), version=4)))
        d['timestamp'] = ts.isoformat()
        if evs and rng.random() < 0.8: d['parent_id'] = evs[-1]['id']
        ev = Event.model_validate(d)
        evs.append(json.loads(ev.model_dump_json(exclude_none=True)))
        return evs[-1]
    def s():
        r = rng.random()
        if r < 0.1: return ''
        if r < 0.15: return rng.choice(SCRIPTS) * rng.randint(2000, 12000)
        return ''.join(rng.choice(SCRIPTS) for _ in range(rng.randint(1, 4)))
    def text(t=None):
        d = {'type': 'text', 'text': s() if t is None else t}
        if rng.random() < 0.15: d['cache_prompt'] = True
        return d
    def image():
        d = {'type': 'image', 'image_urls': [rng.choice(['data:image/png;base64,iVBORw0KGgo=', 'https://example.com/a.png', 'data:image/jpeg;base64,/9j/'])
                                             for _ in range(rng.randint(0, 3))]}
        if rng.random() < 0.15: d['cache_prompt'] = True
        return d
    def contents(images=True):
        return [image() if images and rng.random() < 0.25 else text() for _ in range(rng.choice([0, 1, 1, 2, 3]))]
    def thinking():
        out = []
        for _ in range(rng.choice([0, 1, 2])):
            if rng.random() < 0.3: out.append({'type': 'redacted_thinking', 'data': s()})
            else:
                b = {'type': 'thinking', 'thinking': s()}
                if rng.random() < 0.6: b['signature'] = rng.choice(['sig', ''])
                out.append(b)
        return out
    def reasoning_item():
        return {k: v for k, v in {'id': rng.choice(['rs_1', None, '']), 'summary': rng.choice([[], [s()], [s(), s()]]),
                'content': rng.choice([None, [], [s()]]), 'encrypted_content': rng.choice([None, '', 'enc']),
                'status': rng.choice([None, '', 'completed', 'in_progress'])}.items() if v is not None}
    def critic():
        return {'score': rng.choice([0.0, 0.5, 1.0]), 'message': s(), **({'metadata': {'k': rng.choice([None, 1, 'v', [1, None]])}} if rng.random() < 0.5 else {})}
    def maybe(d, key, fn, p=0.3):
        if rng.random() < p: d[key] = fn()
    def tool():
        kind = rng.choice(TOOL_KINDS)
        d = {'description': s(), 'action_type': rng.choice(['FinishAction', 'TerminalAction', 'MCPToolAction']), 'kind': kind}
        maybe(d, 'observation_type', lambda: rng.choice(['FinishObservation', 'TerminalObservation']), 0.7)
        maybe(d, 'annotations', lambda: {k: v for k, v in {'title': rng.choice([None, s()]), 'readOnlyHint': rng.choice([None, True, False]), 'destructiveHint': rng.choice([None, True]), 'idempotentHint': rng.choice([None, False]), 'openWorldHint': rng.choice([None, True])}.items() if v is not None}, 0.7)
        maybe(d, 'meta', lambda: {'a': rng.choice([None, 1, s()]), 'b': [1, None, {'c': None}]}, 0.3)
        maybe(d, 'title', s, 0.3)
        schema = {'type': 'object', 'properties': {'q': {'type': 'string', 'default': None, 'description': s()}}, 'required': [], 'x-extra': [None]}
        if kind == 'ClientTool': d.update(client_tool_name=s() or 'c', input_schema=schema)
        if kind == 'MCPToolDefinition': d['mcp_tool'] = {'name': s() or 'm', 'inputSchema': schema, **({'description': None} if rng.random() < 0.3 else {}), **({'annotations': {'title': s()}} if rng.random() < 0.3 else {})}
        return d
    sp = {'kind': 'SystemPromptEvent', 'source': 'agent', 'system_prompt': text(), 'tools': [tool() for _ in range(rng.choice([0, 0, 1, 3]))]}
    maybe(sp, 'dynamic_context', text)
    add(sp)
    calls = []  # (action event, tool)
    def user_message():
        d = {'kind': 'MessageEvent', 'source': 'user', 'llm_message': {'role': 'user', 'content': contents()}}
        maybe(d, 'extended_content', lambda: [text() for _ in range(rng.randint(0, 2))])
        maybe(d, 'activated_skills', lambda: rng.sample(['skill-a', 'skill-b', 'skill-c'], rng.randint(0, 3)))
        maybe(d, 'sender', s, 0.2)
        maybe(d, 'critic_result', critic, 0.1)
        add(d)
    if rng.random() < 0.9: user_message()
    for turn in range(rng.randint(2, 14)):
        r = rng.random()
        if r < 0.35:
            resp = rng.choice(['chatcmpl-%d-%d' % (seed, turn), 'resp_shared', ''])
            for i in range(rng.choice([1, 1, 2, 3])):
                call = rng.choice(['call_%d_%d_%d' % (seed, turn, i), 'fc_%d_%d' % (turn, i), 'toolu_%d%d' % (turn, i)])
                tool = rng.choice(['think', 'terminal', 'finish', 'mystery_tool'])
                args = rng.choice([json.dumps({'thought': s()}), '{}', '', 'not json', json.dumps({'command': s()}, ensure_ascii=False)])
                tc = {'id': call, 'name': tool, 'arguments': args, 'origin': rng.choice(['completion', 'responses'])}
                maybe(tc, 'responses_item_id', lambda: rng.choice(['fc_item', '', 'item_x']))
                d = {'kind': 'ActionEvent', 'source': 'agent', 'thought': [text() for _ in range(rng.choice([0, 1, 2]))] if i == 0 else [],
                     'tool_name': tool, 'tool_call_id': call, 'tool_call': tc, 'llm_response_id': resp,
                     'security_risk': rng.choice(['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'])}
                if tool == 'think' and rng.random() < 0.7: d['action'] = {'kind': 'ThinkAction', 'thought': s()}
                if tool == 'terminal' and rng.random() < 0.7: d['action'] = {'kind': 'TerminalAction', 'command': s(), **({'is_input': True} if rng.random() < 0.2 else {}), **({'timeout': 3.5} if rng.random() < 0.2 else {})}
                if tool == 'finish' and rng.random() < 0.7: d['action'] = {'kind': 'FinishAction', 'message': s()}
                if i == 0:
                    maybe(d, 'reasoning_content', s)
                    maybe(d, 'thinking_blocks', thinking)
                    maybe(d, 'responses_reasoning_item', reasoning_item, 0.2)
                maybe(d, 'summary', s)
                maybe(d, 'critic_result', critic, 0.1)
                calls.append((add(d), tool))
        elif r < 0.55 and calls:
            ev, tool = rng.choice(calls)
            o = rng.random()
            if o < 0.25:
                d = {'kind': 'AgentErrorEvent', 'source': 'agent', 'tool_name': ev['tool_name'], 'tool_call_id': ev['tool_call_id'], 'error': s()}
                maybe(d, 'classification', lambda: {'kind': rng.choice(['auth', 'agent_action', 'unknown']), 'retryable': rng.random() < 0.5, **({'user_action': 'retry'} if rng.random() < 0.3 else {}), **({'error_id': 'e1'} if rng.random() < 0.3 else {})})
                add(d)
            elif o < 0.4:
                d = {'kind': 'UserRejectObservation', 'source': 'environment', 'tool_name': ev['tool_name'], 'tool_call_id': ev['tool_call_id'], 'action_id': ev['id']}
                maybe(d, 'rejection_reason', s, 0.6)
                maybe(d, 'rejection_source', lambda: rng.choice(['user', 'hook']), 0.5)
                add(d)
            else:
                if tool == 'think': obs = {'kind': 'ThinkObservation', 'content': contents(False)}
                elif tool == 'finish': obs = {'kind': 'FinishObservation', 'content': contents()}
                elif tool == 'terminal':
                    obs = {'kind': 'TerminalObservation', 'content': contents(), 'command': s(), 'exit_code': rng.choice([None, 0, 1, -1, 137]), 'is_error': rng.random() < 0.3, 'timeout': rng.random() < 0.2}
                    obs = {k: v for k, v in obs.items() if v is not None}
                else:
                    obs = {'kind': 'MCPToolObservation', 'content': contents(), 'is_error': rng.random() < 0.4, 'tool_name': ev['tool_name']}
                d = {'kind': 'ObservationEvent', 'source': 'environment', 'tool_name': ev['tool_name'], 'tool_call_id': ev['tool_call_id'], 'observation': obs, 'action_id': ev['id']}
                maybe(d, 'extended_content', lambda: [text() for _ in range(rng.randint(0, 2))], 0.2)
                add(d)
        elif r < 0.65:
            m = {'role': 'assistant', 'content': contents(False)}
            maybe(m, 'reasoning_content', s)
            maybe(m, 'thinking_blocks', thinking)
            maybe(m, 'responses_reasoning_item', reasoning_item, 0.2)
            if rng.random() < 0.15:
                m['tool_calls'] = [{'id': 'call_m_%d_%d' % (turn, k), 'name': 'think', 'arguments': '{}', 'origin': 'completion'} for k in range(rng.randint(0, 2))]
            d = {'kind': 'MessageEvent', 'source': 'agent', 'llm_message': m}
            maybe(d, 'llm_response_id', lambda: 'chatcmpl-m-%d-%d' % (seed, turn), 0.7)
            maybe(d, 'critic_result', critic, 0.1)
            maybe(d, 'sender', s, 0.1)
            add(d)
        elif r < 0.72:
            user_message()
        elif r < 0.735:
            # Another system prompt, or an LLM-converted system or user message with tool threading keys.
            if rng.random() < 0.5: add({'kind': 'SystemPromptEvent', 'source': 'agent', 'system_prompt': text(), 'tools': [], **({'dynamic_context': text()} if rng.random() < 0.5 else {})})
            else:
                m = {'role': rng.choice(['system', 'user']), 'content': contents()}
                maybe(m, 'name', s, 0.3)
                maybe(m, 'tool_call_id', lambda: 'call_u_%d' % turn, 0.2)
                add({'kind': 'MessageEvent', 'source': rng.choice(['user', 'agent', 'environment']), 'llm_message': m})
        elif r < 0.75:
            # An LLM-converted tool result carried by a MessageEvent.
            m = {'role': 'tool', 'content': contents(), 'name': rng.choice(['think', 'terminal'])}
            if rng.random() < 0.85: m['tool_call_id'] = rng.choice([c[0]['tool_call_id'] for c in calls] or ['call_x'])
            add({'kind': 'MessageEvent', 'source': 'environment', 'llm_message': m})
        elif r < 0.8:
            add({'kind': rng.choice(['PauseEvent', 'CondensationRequest', 'CondensationRequest']), 'source': rng.choice(['user', 'environment', 'agent'])})
        elif r < 0.83:
            add({'kind': 'ConversationStateUpdateEvent', 'source': 'environment', 'key': rng.choice(['execution_status', 'full_state', 'x']), 'value': rng.choice(['running', None, 3, {'a': [1, None]}])})
        else:
            ids = [e['id'] for e in evs]
            mode = rng.random()
            if mode < 0.4:
                a = rng.randint(0, max(0, len(ids) - 1)); b = rng.randint(a, len(ids)); forgotten = ids[a:b]
            elif mode < 0.8:
                forgotten = rng.sample(ids, rng.randint(0, len(ids)))
            else:
                forgotten = rng.sample(ids, rng.randint(0, len(ids))) + ['unknown-%d' % k for k in range(rng.randint(1, 3))]
            d = {'kind': 'Condensation', 'source': rng.choice(['environment', 'agent']), 'forgotten_event_ids': forgotten, 'llm_response_id': 'chatcmpl-c-%d-%d' % (seed, turn)}
            maybe(d, 'summary', s, 0.7)
            maybe(d, 'summary_offset', lambda: rng.choice([0, 1, 2, 5, 1000]), 0.7)
            add(d)
    dest = os.path.join(out, 'odd_%05d' % seed)
    os.makedirs(os.path.join(dest, 'events'), exist_ok=True)
    for i, e in enumerate(evs):
        with open(os.path.join(dest, 'events', 'event-%05d-%s.json' % (i, e['id'])), 'w') as f:
            f.write(Event.model_validate(e).model_dump_json(exclude_none=True))
    return dest

out = sys.argv[1]; n0, n1 = int(sys.argv[2]), int(sys.argv[3])
for seed in range(n0, n1):
    try: run(seed, out)
    except Exception as e: print('seed', seed, type(e).__name__, str(e)[:300], file=sys.stderr)
