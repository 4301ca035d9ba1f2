"""Whether x and the reference continue a reference-written conversation alike: compares the events each appended,
up to the first one a model made (an action or an agent message), skipping state updates, completion logs and token
ids (x records its runs as state updates). The pending calls of a conversation left waiting for confirmation must
get the same results, and rejections of the calls a hook blocked, in the same order.

Usage: continued.py <dirs as generated> <the same after xresume.mts --run --tools> <the same after refresume.py>
"""
import json, glob, os, sys

def events(d):
    return [json.load(open(f)) for f in sorted(glob.glob(d + '/events/event-*.json'))]

def shape(e):
    k = e['kind']
    if k == 'MessageEvent':
        text = ''.join(c.get('text', '') for c in e['llm_message']['content'])
        return k + ':' + e['source'] + ('' if e['source'] == 'user' else ':' + text[:30])
    if k in ('ObservationEvent', 'UserRejectObservation', 'AgentErrorEvent'):
        return k + ':' + e.get('tool_call_id', '') + ':' + (e.get('error') or e.get('rejection_reason') or '')[:40]
    if k == 'ConversationErrorEvent': return k + ':' + e['code']
    if k == 'HookExecutionEvent': return k + ':' + e['hook_event_type']
    return k

def before_the_model(shapes):
    out = []
    for s in shapes:
        if s.split(':')[0] in ('ConversationStateUpdateEvent', 'LLMCompletionLogEvent', 'TokenEvent'): continue
        if s.startswith('ActionEvent') or s.startswith('MessageEvent:agent'): break
        out.append(s)
    return out

original, ours, theirs = sys.argv[1:4]
bad = 0
names = sorted(os.listdir(original))
for name in names:
    n = len(events(os.path.join(original, name)))
    x = before_the_model([shape(e) for e in events(os.path.join(ours, name))[n:]])
    r = before_the_model([shape(e) for e in events(os.path.join(theirs, name))[n:]])
    if x != r:
        bad += 1
        status = json.load(open(os.path.join(original, name, 'base_state.json'))).get('execution_status')
        print('==', name, status); print('   x  ', x[:8]); print('   ref', r[:8])
print('continued', len(names), 'differing', bad)
