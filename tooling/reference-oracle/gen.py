"""Write random conversation directories with the reference's own models (validated and dumped by it)."""
import sys, os, json, random, uuid, datetime
import os as _os
exec(open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), 'refderive.py')).read().split('def derive')[0])
from openhands.sdk.event.base import Event

def run(seed, out):
    rng = random.Random(seed)
    ts = datetime.datetime(2026, 8, 22, 10, 0, 0)
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
    def text(t): return {'type': 'text', 'text': t, 'cache_prompt': False}
    pad = lambda: rng.choice(['', ' ', '\n', '\t', '\u2028', '\u00a0', '\x1c', '\ufeff', '\u3000', '\x85', '\u200b'])
    add({'kind': 'SystemPromptEvent', 'source': 'agent', 'system_prompt': text(pad() + 'You are a test agent %d.' % seed + pad() + pad()),
         'tools': [], **({'dynamic_context': text('Dynamic context %d' % seed)} if rng.random() < 0.3 else {})})
    def user_message():
        content = [text('user says %d' % rng.randint(0, 999))]
        if rng.random() < 0.2: content.append({'type': 'image', 'image_urls': ['data:image/png;base64,iVBORw0KGgo='], 'cache_prompt': False})
        d = {'kind': 'MessageEvent', 'source': 'user', 'llm_message': {'role': 'user', 'content': content}}
        if rng.random() < 0.2: d['extended_content'] = [text('extended %d' % rng.randint(0, 99))]
        if rng.random() < 0.1: d['activated_skills'] = ['skill-a']
        add(d)
    user_message()
    pending_condensation_ok = True
    for turn in range(rng.randint(1, 7)):
        r = rng.random()
        if r < 0.55:
            resp = 'chatcmpl-%d-%d' % (seed, turn)
            k = rng.choice([1, 1, 2, 3])
            actions = []
            for i in range(k):
                call = 'call_%d_%d_%d' % (seed, turn, i)
                tool = rng.choice(['think', 'terminal', 'finish', 'think'])
                if tool == 'think':
                    args = {'thought': 'thinking %d' % i}; action = {'kind': 'ThinkAction', 'thought': args['thought']}
                elif tool == 'terminal':
                    args = {'command': 'echo %d' % i}; action = {'kind': 'TerminalAction', 'command': args['command']}
                else:
                    args = {'message': 'done %d' % i}; action = {'kind': 'FinishAction', 'message': args['message']}
                broken = rng.random() < 0.1
                d = {'kind': 'ActionEvent', 'source': 'agent', 'thought': [text(pad() + pad() if rng.random() < 0.25 else 'thought for batch %d' % turn)] if i == 0 and rng.random() < 0.7 else [],
                     'tool_name': tool, 'tool_call_id': call,
                     'tool_call': {'id': call, 'name': tool, 'arguments': json.dumps(args), 'origin': 'completion'},
                     'llm_response_id': resp, 'security_risk': rng.choice(['UNKNOWN', 'LOW', 'HIGH'])}
                if not broken: d['action'] = action
                if i == 0 and rng.random() < 0.3: d['reasoning_content'] = 'reasoning %d' % turn
                if i == 0 and rng.random() < 0.2: d['thinking_blocks'] = [{'type': 'thinking', 'thinking': 'hmm', 'signature': 'sig'}]
                if rng.random() < 0.3: d['summary'] = 'summary %d' % i
                if i == 0 and rng.random() < 0.2:
                    d['responses_reasoning_item'] = {k: v for k, v in {'id': rng.choice(['rs_%d' % turn, None]), 'summary': rng.choice([[], ['s1'], ['s1', 's2']]), 'content': rng.choice([None, [], ['c1']]), 'encrypted_content': rng.choice([None, 'enc']), 'status': rng.choice([None, 'completed'])}.items() if v is not None}
                actions.append((add(d), tool, broken))
            order = list(actions)
            if rng.random() < 0.3: rng.shuffle(order)
            for ev, tool, broken in order:
                o = rng.random()
                if broken or o < 0.12:
                    add({'kind': 'AgentErrorEvent', 'source': 'agent', 'tool_name': ev['tool_name'], 'tool_call_id': ev['tool_call_id'], 'error': 'Error validating args for %s' % ev['tool_name']})
                elif o < 0.22:
                    add({'kind': 'UserRejectObservation', 'source': 'environment', 'tool_name': ev['tool_name'], 'tool_call_id': ev['tool_call_id'], 'action_id': ev['id'], 'rejection_reason': rng.choice(['User rejected the action', 'not allowed'])})
                elif o < 0.3:
                    pass  # unmatched: the run stopped before the observation
                else:
                    if tool == 'think': obs = {'kind': 'ThinkObservation', 'content': [text('Your thought has been logged.')]}
                    elif tool == 'finish': obs = {'kind': 'FinishObservation', 'content': [text('done')]}
                    else:
                        obs = {'kind': 'TerminalObservation', 'content': [text('%d' % rng.randint(0, 9))], 'command': 'echo', 'exit_code': rng.choice([0, 1, -1]), 'is_error': rng.random() < 0.2}
                        if rng.random() < 0.1: obs['content'].append({'type': 'image', 'image_urls': ['data:image/png;base64,AAAA'], 'cache_prompt': False})
                    d = {'kind': 'ObservationEvent', 'source': 'environment', 'tool_name': ev['tool_name'], 'tool_call_id': ev['tool_call_id'], 'observation': obs, 'action_id': ev['id']}
                    if rng.random() < 0.1: d['extended_content'] = [text('hook context')]
                    add(d)
        elif r < 0.68:
            extra = {}
            if rng.random() < 0.3: extra['reasoning_content'] = 'why'
            if rng.random() < 0.2: extra['responses_reasoning_item'] = {'id': 'rs_m_%d' % turn, 'summary': ['sum'], 'encrypted_content': 'e'}
            content = [text(pad() + 'agent reply %d' % turn + pad())] if rng.random() < 0.9 else []
            add({'kind': 'MessageEvent', 'source': 'agent', 'llm_message': {'role': 'assistant', 'content': content, **extra}, 'llm_response_id': 'chatcmpl-m-%d-%d' % (seed, turn)})
        elif r < 0.76:
            user_message()
        elif r < 0.8:
            add({'kind': rng.choice(['PauseEvent', 'CondensationRequest']), 'source': rng.choice(['user', 'environment'])})
        elif r < 0.83:
            add({'kind': 'ConversationStateUpdateEvent', 'source': 'environment', 'key': 'execution_status', 'value': 'running'})
        else:
            ids = [e['id'] for e in evs if e['kind'] not in ('Condensation', 'CondensationRequest')]
            if len(ids) > 2:
                mode = rng.random()
                if mode < 0.5:
                    a = rng.randint(1, max(1, len(ids) - 2)); b = rng.randint(a, len(ids) - 1); forgotten = ids[a:b]
                else:
                    forgotten = rng.sample(ids, rng.randint(0, len(ids) - 1))
                d = {'kind': 'Condensation', 'source': 'environment', 'forgotten_event_ids': forgotten, 'llm_response_id': 'chatcmpl-c-%d-%d' % (seed, turn)}
                if rng.random() < 0.7:
                    d['summary'] = 'summary of %d events' % len(forgotten)
                    if rng.random() < 0.8: d['summary_offset'] = rng.randint(0, 3)
                add(d)
    dest = os.path.join(out, 'gen_%05d' % seed)
    os.makedirs(os.path.join(dest, 'events'), exist_ok=True)
    for i, e in enumerate(evs):
        with open(os.path.join(dest, 'events', 'event-%05d-%s.json' % (i, e['id'])), 'w') as f:
            f.write(Event.model_validate(e).model_dump_json(exclude_none=True))
    return dest

out = sys.argv[1]; n0, n1 = int(sys.argv[2]), int(sys.argv[3])
for s in range(n0, n1):
    try: run(s, out)
    except Exception as e: print('seed', s, type(e).__name__, str(e)[:300], file=sys.stderr)
