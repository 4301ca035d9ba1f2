import sys, types, importlib.abc, importlib.machinery

STUB_ROOTS = set()

class _Dummy:
    def __init__(self, *a, **k): pass
    def __call__(self, *a, **k):
        if len(a) == 1 and not k and (callable(a[0]) and not isinstance(a[0], _Dummy)): return a[0]
        return _Dummy()
    def __getattr__(self, name): return _Dummy()
    def __iter__(self): return iter(())
    def __bool__(self): return False
    def __mro_entries__(self, bases): return (object,)
    def __add__(self, o): return o
    def __radd__(self, o): return o
    def __getitem__(self, k): return _Dummy()
    def __contains__(self, k): return False
    def __len__(self): return 0
    def keys(self): return []
    def items(self): return []
    def values(self): return []
    def get(self, *a): return None

import logging
class _Meta(type):
    def __iter__(cls): return iter(())
    def __len__(cls): return 0
    def __contains__(cls, x): return False
    def __getattr__(cls, n):
        if n.startswith('__'): raise AttributeError(n)
        return _Dummy()
def _make_cls(name):
    if name.endswith('Handler'):
        return type(name, (logging.Handler,), {'__init__': lambda self, *a, **k: logging.Handler.__init__(self), 'emit': lambda self, r: None})
    return _Meta(name, (), {'__init__': lambda self, *a, **k: None, '__class_getitem__': classmethod(lambda cls, item: cls), '__getattr__': lambda self, n: _Dummy()})

class StubModule(types.ModuleType):
    def __init__(self, name):
        super().__init__(name)
        self.__path__ = []
        self.__all__ = []
    def __getattr__(self, name):
        if name.startswith('__'): raise AttributeError(name)
        cls = _make_cls(name) if name[:1].isupper() else _Dummy()
        setattr(self, name, cls)
        return cls

class StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, roots): self.roots = roots
    def find_spec(self, fullname, path, target=None):
        if fullname.split('.')[0] in self.roots:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None
    def create_module(self, spec): return StubModule(spec.name)
    def exec_module(self, module): pass

def install(roots):
    sys.meta_path.insert(0, StubFinder(set(roots)))

def bare_package(name, path):
    m = types.ModuleType(name); m.__path__ = [path]; sys.modules[name] = m

class FallbackFinder(StubFinder):
    def find_spec(self, fullname, path, target=None):
        top = fullname.split('.')[0]
        if top in ('openhands', 'org', 'email_validator', 'eval_type_backport') or top in sys.stdlib_module_names or top.startswith('_'): return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

def install_fallback():
    sys.meta_path.append(FallbackFinder(set()))
