"""Random observations and actions of every registered reference kind, in reference-written conversations."""
import sys, os, json, random, uuid, datetime, typing, enum, types
import os as _os
exec(open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), 'refderive.py')).read().split('def derive')[0])
from openhands.sdk.event.base import Event
from openhands.sdk.tool.schema import Observation, Action
from pydantic import BaseModel

def subclasses(c):
    out = []
    for s in c.__subclasses__():
        out.append(s); out.extend(subclasses(s))
    return out
import inspect
OBS = sorted({c for c in subclasses(Observation) if not inspect.isabstract(c) and 'Mock' not in c.__name__ and 'Test' not in c.__name__}, key=lambda c: c.__name__)
ACT = sorted({c for c in subclasses(Action) if not inspect.isabstract(c) and 'Mock' not in c.__name__ and 'Test' not in c.__name__}, key=lambda c: c.__name__)

WORDS = ['a', 'file.py', '/workspace/x', 'héllo', '日本', 'line1\nline2', '  spaced  ', '', 'tab\there', '"quoted"', '\\back', '<tag>', 'emoji 😀', '\u2028sep']
def rstr(rng):
    r = rng.random()
    if r < 0.03: return 'x' * rng.choice([29990, 30001, 45000]) + '\nend'
    if r < 0.08: return '\n'.join(rng.choice(WORDS) for _ in range(rng.randint(1, 60)))
    return ' '.join(rng.choice(WORDS) for _ in range(rng.randint(0, 4)))

def gen(ann, rng, depth=0, name=''):
    origin = typing.get_origin(ann); args = typing.get_args(ann)
    if ann is typing.Any: return rng.choice([None, 1, 'x', {'k': 'v'}, [1, 2]])
    if origin in (typing.Union, types.UnionType):
        return gen(rng.choice(args), rng, depth, name)
    if origin is typing.Literal: return rng.choice(args)
    if ann is type(None): return None
    if origin in (list, typing.List, tuple, set, frozenset) or (origin is not None and getattr(origin, '__name__', '') in ('Sequence',)):
        n = rng.randint(0, 3) if depth < 3 else 0
        inner = args[0] if args else str
        return [gen(inner, rng, depth + 1, name) for _ in range(n)]
    if origin in (dict, typing.Dict):
        return {rstr(rng) or 'k': gen(args[1] if len(args) > 1 else str, rng, depth + 1) for _ in range(rng.randint(0, 2))}
    if origin is typing.Annotated: return gen(args[0], rng, depth, name)
    if isinstance(ann, type):
        if issubclass(ann, bool): return rng.random() < 0.5
        if issubclass(ann, enum.Enum): return rng.choice(list(ann)).value
        if issubclass(ann, int): return rng.choice([0, 1, -1, 2, 127, 100000])
        if issubclass(ann, float): return rng.choice([0.0, 1.5, -2.25, 1e-7, 3.0])
        if issubclass(ann, str): return rstr(rng)
        if issubclass(ann, BaseModel): return model(ann, rng, depth + 1)
    return rstr(rng)

def model(cls, rng, depth=0):
    if cls.__name__ == 'TextContent': return {'type': 'text', 'text': rstr(rng), 'cache_prompt': False}
    if cls.__name__ == 'ImageContent': return {'type': 'image', 'image_urls': ['data:image/png;base64,iVBORw0KGgo='], 'cache_prompt': False}
    out = {}
    for fname, f in cls.model_fields.items():
        if fname == 'kind': continue
        if not f.is_required() and rng.random() < 0.4: continue
        if fname == 'content' and issubclass(cls, Observation):
            out[fname] = [model(type('TextContent', (), {}), rng) if rng.random() < 0.85 else model(type('ImageContent', (), {}), rng) for _ in range(rng.randint(0, 3))]
            continue
        out[fname] = gen(f.annotation, rng, depth, fname)
    return out

def make(cls, rng):
    for _ in range(30):
        try:
            d = model(cls, rng); d['kind'] = cls.__name__
            return json.loads(cls.model_validate(d).model_dump_json(exclude_none=True))
        except Exception as e:
            last = e
    raise last

def run(seed, out):
    rng = random.Random(seed)
    ts = datetime.datetime(2026, 8, 22, 10, 0, 0)
    evs = []
    def add(d):
        nonlocal ts
        ts += datetime.timedelta(milliseconds=rng.randint(1, 900))
        d.setdefault('id', str(uuid.UUID(int=rng.getrandbits(128), version=4)))
        d['timestamp'] = ts.isoformat()
        ev = Event.model_validate(d)
        evs.append(json.loads(ev.model_dump_json(exclude_none=True)))
        return evs[-1]
    def text(t): return {'type': 'text', 'text': t, 'cache_prompt': False}
    add({'kind': 'SystemPromptEvent', 'source': 'agent', 'system_prompt': text('sys'), 'tools': []})
    add({'kind': 'MessageEvent', 'source': 'user', 'llm_message': {'role': 'user', 'content': [text('go')]}})
    for i in range(rng.randint(1, 6)):
        ocls = rng.choice(OBS); acls = rng.choice(ACT)
        try:
            action = make(acls, rng); obs = make(ocls, rng)
        except Exception as e:
            print('skip', ocls.__name__, acls.__name__, str(e)[:200], file=sys.stderr); continue
        call = 'call_%d_%d' % (seed, i); tool = rng.choice(['terminal', 'file_editor', 'glob', 'grep', 'task_tracker', 'apply_patch', 'browser', 'mcp_tool'])
        a = add({'kind': 'ActionEvent', 'source': 'agent', 'thought': [], 'tool_name': tool, 'tool_call_id': call,
             'tool_call': {'id': call, 'name': tool, 'arguments': json.dumps({k: v for k, v in action.items() if k != 'kind'}), 'origin': 'completion'},
             'llm_response_id': 'resp_%d_%d' % (seed, i), 'security_risk': 'UNKNOWN', 'action': action})
        add({'kind': 'ObservationEvent', 'source': 'environment', 'tool_name': tool, 'tool_call_id': call, 'observation': obs, 'action_id': a['id']})
    dest = os.path.join(out, 'obs_%05d' % seed)
    os.makedirs(os.path.join(dest, 'events'), exist_ok=True)
    for i, e in enumerate(evs):
        with open(os.path.join(dest, 'events', 'event-%05d-%s.json' % (i, e['id'])), 'w') as f:
            f.write(Event.model_validate(e).model_dump_json(exclude_none=True))

if __name__ == '__main__':
    print('observations', [c.__name__ for c in OBS], file=sys.stderr)
    print('actions', [c.__name__ for c in ACT], file=sys.stderr)
    out = sys.argv[1]; n0, n1 = int(sys.argv[2]), int(sys.argv[3])
    for s in range(n0, n1):
        try: run(s, out)
        except Exception as e: print('seed', s, type(e).__name__, str(e)[:300], file=sys.stderr)
