import json, sys
def args(a):
    try: return json.loads(a)
    except Exception: return a
def norm(ms):
    out=[]
    for m in ms or []:
        m=dict(m)
        if 'tool_calls' in m and m['tool_calls']:
            m['tool_calls']=[{**c,'function':{**c['function'],'arguments':args(c['function']['arguments'])}} for c in m['tool_calls']]
        out.append(m)
    return out
def fix(d):
    for e in d.get('reserialized') or []:
        if 'forgotten_event_ids' in e: e['forgotten_event_ids']=sorted(e['forgotten_event_ids'])
    return d
ref={json.loads(l)['dir']:fix(json.loads(l)) for l in open(sys.argv[1])}
ours={json.loads(l)['dir']:fix(json.loads(l)) for l in open(sys.argv[2])}
bad=0
for d,r in sorted(ref.items()):
    o=ours.get(d)
    diffs=[]
    if o is None: diffs.append('missing'); 
    else:
        for k in ['errors','event_count','kinds','view_event_ids','llm_visible_event_ids','unhandled_condensation_request','derive_error','manipulation_indices']:
            if r.get(k)!=o.get(k) and not (k=='errors' and not r.get(k) and not o.get(k)): diffs.append((k, str(r.get(k))[:400], str(o.get(k))[:400]))
        for k in ['messages','messages_string_form','messages_cache_reasoning']:
            a,b=norm(r.get(k)),norm(o.get(k))
            if a!=b:
                for i,(x,y) in enumerate(zip(a,b)):
                    if x!=y: diffs.append((k,i,json.dumps(x)[:500],json.dumps(y)[:500])); break
                else: diffs.append((k,'len',len(a),len(b)))
        if r.get('responses')!=o.get('responses'):
            a,b=r.get('responses') or {},o.get('responses') or {}
            if a.get('instructions')!=b.get('instructions'): diffs.append(('responses.instructions', repr(a.get('instructions'))[:300], repr(b.get('instructions'))[:300]))
            for i,(x,y) in enumerate(zip(a.get('input',[]),b.get('input',[]))):
                if x!=y: diffs.append(('responses.input',i,json.dumps(x)[:500],json.dumps(y)[:500])); break
            else:
                if len(a.get('input',[]))!=len(b.get('input',[])): diffs.append(('responses.input len', len(a.get('input',[])), len(b.get('input',[]))))
        if o.get('not_written_back'): diffs.append(('not written back as read', o['not_written_back'][:5]))
        if r.get('responses_no_vision')!=o.get('responses_no_vision'): diffs.append(('responses_no_vision', json.dumps(r.get('responses_no_vision'))[:300], json.dumps(o.get('responses_no_vision'))[:300]))
        if r.get('reserialized')!=o.get('reserialized'):
            for i,(x,y) in enumerate(zip(r.get('reserialized') or [],o.get('reserialized') or [])):
                if x!=y: diffs.append(('reserialized',i,json.dumps(x)[:400],json.dumps(y)[:400])); break
    if diffs:
        bad+=1
        if bad<=int(sys.argv[3]) if len(sys.argv)>3 else 5:
            print('==', d); [print('  ', x) for x in diffs]
print('cases', len(ref), 'differing', bad)
