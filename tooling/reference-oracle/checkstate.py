"""Whether the reference reads the base_state.json and events @x wrote back, keeping what the reference recorded.

Usage: checkstate.py <dirs as generated> <the same dirs after @x resumed and closed them>
"""
import os
import sys, os, json, glob
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'refderive.py')).read().split('def derive')[0])
from openhands.sdk.conversation.state import ConversationState
from openhands.sdk.event.base import Event
bad = 0
for d in sorted(glob.glob(sys.argv[2] + '/*')):
    name = os.path.basename(d)
    before = json.load(open(os.path.join(sys.argv[1], name, 'base_state.json')))
    # A secret the reference wrote redacted (no cipher: "**********") reads back as no value, and the reference's own
    # resume then writes it without one: compare with what the reference itself would write back.
    try:
        before['secret_registry'] = json.loads(ConversationState.model_validate_json(json.dumps(before)).model_dump_json(exclude_none=True)).get('secret_registry', {})
    except Exception as e:
        pass
    text = open(os.path.join(d, 'base_state.json')).read()
    problems = []
    try:
        st = ConversationState.model_validate_json(text)
        after = json.loads(st.model_dump_json(exclude_none=True))
    except Exception as e:
        problems.append('reference cannot read it: ' + str(e)[:800]); after = json.loads(text)
    for f in sorted(glob.glob(d + '/events/*.json')):
        try: Event.model_validate_json(open(f).read())
        except Exception as e: problems.append('event ' + os.path.basename(f) + ': ' + str(e)[:300])
    # A hook-blocked action leaves blocked_actions when a continuation rejects it (the reference pops it then too).
    rejected = set()
    for f in glob.glob(d + '/events/*.json'):
        e = json.load(open(f))
        if e.get('kind') == 'UserRejectObservation': rejected.add(e.get('action_id'))
    for a, reason in (before.get('blocked_actions') or {}).items():
        if (after.get('blocked_actions') or {}).get(a) != reason and a not in rejected: problems.append(f'blocked action {a} lost')
    for a in set(after.get('blocked_actions') or {}) - set(before.get('blocked_actions') or {}): problems.append(f'blocked action {a} added')
    for k in ['id', 'confirmation_policy', 'security_analyzer', 'activated_knowledge_skills', 'activated_path_rules', 'tags', 'hook_config', 'max_iterations', 'stuck_detection', 'blocked_messages']:
        if before.get(k) != after.get(k): problems.append(f'{k}: before {json.dumps(before.get(k))[:300]} after {json.dumps(after.get(k))[:300]}')
    for k in set(before.get('invoked_skills', [])) - set(after.get('invoked_skills', [])): problems.append('invoked skill lost ' + k)
    if before.get('agent_state', {}).get('ref_key') != after.get('agent_state', {}).get('ref_key'): problems.append('agent_state.ref_key lost')
    # Every other recorded field, whatever its name, survives as it was (x computes only these itself).
    computed = {'agent', 'workspace', 'persistence_dir', 'execution_status', 'last_user_message_id', 'leaf_event_id', 'blocked_actions',
                'head_is_empty', 'stats', 'agent_state', 'invoked_skills', 'activated_knowledge_skills'}
    for k in sorted(set(before) - computed):
        if k not in after: problems.append(f'{k} lost')
        elif before[k] != after[k]: problems.append(f'{k} changed: before {json.dumps(before[k])[:200]} after {json.dumps(after[k])[:200]}')
    for k in ['invoked_skills', 'activated_knowledge_skills']:
        if after.get(k, [])[:len(before.get(k, []))] != before.get(k, []): problems.append(f'{k}: recorded {before.get(k)} written {after.get(k)}')
    for k, v in (before.get('agent_state') or {}).items():
        if (after.get('agent_state') or {}).get(k) != v: problems.append(f'agent_state.{k} changed')
    bs, as_ = before.get('stats', {}).get('usage_to_metrics', {}), after.get('stats', {}).get('usage_to_metrics', {})
    for uid, m in bs.items():
        if uid not in as_: problems.append('usage id lost ' + uid)
        else:
            for lk in ['costs', 'response_latencies', 'token_usages']:
                if m.get(lk) and as_[uid].get(lk, [])[:len(m[lk])] != m[lk]: problems.append(f'stats {uid}.{lk} changed')
    sb, sa = before.get('secret_registry', {}), after.get('secret_registry', {})
    if sb != sa: problems.append(f'secret_registry: before {json.dumps(sb)[:300]} after {json.dumps(sa)[:300]}')
    if problems:
        bad += 1
        if bad <= 6: print('==', name); [print('   ', p) for p in problems[:6]]
print('checked', len(glob.glob(sys.argv[2] + '/*')), 'with problems', bad)
