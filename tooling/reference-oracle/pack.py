import json, os, glob, sys, random
def load(path): return {json.loads(l)['dir']: json.loads(l) for l in open(path)}
KEYS = ['kinds', 'view_event_ids', 'llm_visible_event_ids', 'unhandled_condensation_request', 'messages', 'messages_string_form', 'responses']
EXTRA = ['messages_cache_reasoning', 'responses_no_vision']
out = []
rng = random.Random(7)
# Usage: pack.py <out.jsonl> <sequences.jsonl> <observations.jsonl> [extra case dirs...]
#    or: pack.py --append <out.jsonl> <derived.jsonl> <count> <size cap>   (adds a sample, with the other switches'
#        forms, to an existing corpus: gen3.py's odd shapes; cases marking content with cache_prompt first)
#    or: pack.py --chosen <out.jsonl> <derived.jsonl> <name prefix> <case dirs...>   (appends the chosen cases, with the
#        other switches' forms, named <prefix><first 12 characters of the directory's name>: genloop.py's cases)
if sys.argv[1] == '--chosen':
    ref = load(sys.argv[3])
    with open(sys.argv[2], 'a') as f:
        for d in sys.argv[5:]:
            r = ref[d]
            assert not r['errors'] and 'derive_error' not in r, d
            files = {os.path.basename(x): open(x).read() for x in sorted(glob.glob(d + '/events/*.json'))}
            f.write(json.dumps({'name': sys.argv[4] + os.path.basename(d.rstrip('/'))[:12], 'files': files, 'expected': {k: r[k] for k in KEYS + EXTRA}}, ensure_ascii=False) + '\n')
    print(len(sys.argv[5:]), os.path.getsize(sys.argv[2]))
    sys.exit(0)
if sys.argv[1] == '--append':
    ref = load(sys.argv[3]); n = int(sys.argv[4]); cap = int(sys.argv[5])
    def sized(d): return sum(os.path.getsize(f) for f in glob.glob(d + '/events/*.json'))
    dirs = [d for d in sorted(ref) if not ref[d]['errors'] and 'derive_error' not in ref[d] and sized(d) <= cap]
    rng.shuffle(dirs)
    dirs.sort(key=lambda d: '"cache_prompt":true' not in ''.join(open(f).read() for f in glob.glob(d + '/events/*.json')))
    with open(sys.argv[2], 'a') as f:
        for d in dirs[:n]:
            files = {os.path.basename(x): open(x).read() for x in sorted(glob.glob(d + '/events/*.json'))}
            f.write(json.dumps({'name': os.path.basename(d), 'files': files, 'expected': {k: ref[d][k] for k in KEYS + EXTRA}}, ensure_ascii=False) + '\n')
    print(min(n, len(dirs)), os.path.getsize(sys.argv[2]))
    sys.exit(0)
for jsonl, n, cap in [(sys.argv[2], 120, 9000), (sys.argv[3], 200, 9000)]:
    ref = load(jsonl)
    dirs = sorted(ref)
    rng.shuffle(dirs)
    taken = 0
    for d in dirs:
        r = ref[d]
        if r['errors'] or 'derive_error' in r: continue
        files = {os.path.basename(f): open(f).read() for f in sorted(glob.glob(d + '/events/*.json'))}
        size = sum(len(t) for t in files.values())
        if size > cap: continue
        for e in r['reserialized']:
            if 'forgotten_event_ids' in e: e['forgotten_event_ids'] = sorted(e['forgotten_event_ids'])
        out.append({'name': os.path.basename(d), 'files': files, 'expected': {k: r[k] for k in ['kinds', 'view_event_ids', 'llm_visible_event_ids', 'unhandled_condensation_request', 'messages', 'messages_string_form', 'responses']}})
        taken += 1
        if taken >= n: break
# plus chosen cases (long texts past the truncation limits, cases that once differed)
ref = load(sys.argv[3])
for d in sys.argv[4:]:
    r = ref[d]
    files = {os.path.basename(f): open(f).read() for f in sorted(glob.glob(d + '/events/*.json'))}
    out.append({'name': os.path.basename(d), 'files': files, 'expected': {k: r[k] for k in ['kinds', 'view_event_ids', 'llm_visible_event_ids', 'unhandled_condensation_request', 'messages', 'messages_string_form', 'responses']}})
with open(sys.argv[1], 'w') as f:
    for c in out: f.write(json.dumps(c, ensure_ascii=False) + '\n')
print(len(out), os.path.getsize(sys.argv[1]))
