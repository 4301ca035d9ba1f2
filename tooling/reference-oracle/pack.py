import json, os, glob, sys, random
def load(path): return {json.loads(l)['dir']: json.loads(l) for l in open(path)}
out = []
rng = random.Random(7)
# Usage: pack.py <out.jsonl> <sequences.jsonl> <observations.jsonl> [extra case dirs...]
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
