import re, sys, pathlib
def tv(params):
    out, names = [], []
    depth, cur, parts = 0, '', []
    for ch in params:
        if ch in '[(': depth += 1
        if ch in '])': depth -= 1
        if ch == ',' and depth == 0: parts.append(cur); cur = ''
        else: cur += ch
    parts.append(cur)
    for p in parts:
        p = p.strip()
        if not p: continue
        if p.startswith('**'):
            n = p[2:]; out.append(f"{n} = __import__('typing').ParamSpec('{n}')"); names.append(None)
        elif p.startswith('*'):
            n = p[1:]; out.append(f"{n} = __import__('typing').TypeVarTuple('{n}')"); names.append(None)
        elif ':' in p:
            n, b = p.split(':', 1); n = n.strip(); out.append(f"{n} = __import__('typing').TypeVar('{n}', bound='{b.strip()}')"); names.append(n)
        else:
            out.append(f"{p} = __import__('typing').TypeVar('{p}')"); names.append(p)
    return out, [n for n in names if n]
for f in [f for root in sys.argv[1:] for f in pathlib.Path(root).rglob('*.py')]:
    s = f.read_text(); orig = s
    lines = s.split('\n'); res = []
    for line in lines:
        m = re.match(r'^(\s*)(class|def|async def) (\w+)\[(.*?)\](\(.*|:.*)$', line)
        if m and not line.strip().startswith('#'):
            ind, kw, name, params, rest = m.groups()
            defs, names = tv(params)
            k = len(res)
            while k > 0 and res[k-1].startswith(ind + '@'): k -= 1
            res[k:k] = [ind + d for d in defs]
            if kw == 'class':
                if rest.startswith(':'):
                    rest = f"(__import__('typing').Generic[{', '.join(names)}])" + rest
                elif rest.startswith('()') or rest.startswith('):'):
                    rest = '(' + f"__import__('typing').Generic[{', '.join(names)}]" + rest[1:] if names else rest
                elif names:
                    # add Generic as last base: find closing paren of bases on this line
                    i = rest.rfind(')')
                    rest = rest[:i] + f", __import__('typing').Generic[{', '.join(names)}]" + rest[i:]
            res.append(f"{ind}{kw} {name}{rest}")
            continue
        m = re.match(r'^(\s*)type (\w+)\s*=(.*)$', line)
        if m:
            res.append(f"{m.group(1)}{m.group(2)} ={m.group(3)}"); continue
        res.append(line)
    s = '\n'.join(res)
    if s != orig: f.write_text(s); print('rewrote', f)
