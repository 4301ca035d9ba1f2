"""Random reference ConversationState files (base_state.json) over a fixture's events.

Usage: genstate.py <conversation dir> <out dir> <first seed> <end seed>
"""
import sys, os, json, random, shutil, inspect
import os as _os
_gen2 = open(_os.path.join(_os.path.dirname(_os.path.abspath(__file__)), 'gen2.py')).read()
exec(_gen2.split("WORDS =")[0])
exec("WORDS =" + _gen2.split("WORDS =")[1].split("def run(")[0])
from openhands.sdk.conversation.state import ConversationState
from openhands.sdk.security.confirmation_policy import ConfirmationPolicyBase
from openhands.sdk.security.analyzer import SecurityAnalyzerBase
from openhands.sdk.hooks.config import HookConfig
from openhands.sdk.conversation.conversation_stats import ConversationStats
from openhands.sdk.conversation.secret_registry import SecretRegistry
def concrete(base):
    return [c for c in [base] + subclasses(base) if not inspect.isabstract(c) and 'Test' not in c.__name__ and 'Mock' not in c.__name__]
def valid(cls, rng, kind=True):
    last = None
    for _ in range(40):
        try:
            d = model(cls, rng)
            if kind: d['kind'] = cls.__name__
            return json.loads(cls.model_validate(d).model_dump_json(exclude_none=True))
        except Exception as e:
            last = e
    return None
def run(seed, src, out):
    rng = random.Random(seed)
    base = json.load(open(os.path.join(src, 'base_state.json')))
    st = dict(base)
    st['execution_status'] = rng.choice(['idle', 'running', 'paused', 'waiting_for_confirmation', 'finished', 'error', 'stuck'])
    cp = rng.choice(concrete(ConfirmationPolicyBase))
    st['confirmation_policy'] = valid(cp, rng) or {'kind': 'NeverConfirm'}
    if rng.random() < 0.7:
        sa = rng.choice(concrete(SecurityAnalyzerBase))
        v = valid(sa, rng)
        if v: st['security_analyzer'] = v
    else:
        st.pop('security_analyzer', None)
    for k in ['activated_knowledge_skills', 'activated_path_rules', 'invoked_skills']:
        st[k] = [rstr(rng) or 's' for _ in range(rng.randint(0, 3))]
    for k in ['blocked_actions', 'blocked_messages', 'tags']:
        st[k] = {('k%d' % i): rstr(rng) for i in range(rng.randint(0, 2))}
    st['agent_state'] = {'ref_key': rng.choice([None, 1, 'x', {'a': [1, None]}])}
    st['max_iterations'] = rng.randint(1, 1000)
    st['stuck_detection'] = rng.random() < 0.5
    for key, cls, p in [('stats', ConversationStats, 0.6), ('hook_config', HookConfig, 0.5), ('secret_registry', SecretRegistry, 0.5)]:
        if rng.random() < p:
            v = valid(cls, rng, kind=False)
            if v is not None: st[key] = v
    state = ConversationState.model_validate(st)
    dest = os.path.join(out, 'state_%05d' % seed)
    shutil.copytree(src, dest)
    with open(os.path.join(dest, 'base_state.json'), 'w') as f:
        f.write(state.model_dump_json(exclude_none=True))
    return dest
src = sys.argv[1]; out = sys.argv[2]
ok = 0
for s in range(int(sys.argv[3]), int(sys.argv[4])):
    try: run(s, src, out); ok += 1
    except Exception as e: print('seed', s, type(e).__name__, str(e)[:300], file=sys.stderr)
print('written', ok, file=sys.stderr)
