"""The public API of the placement package as the stub must spell it: one
line per method, `name(params) -> result` with annotations formatted as
the stub writes them. Shared by test_pyapi.py (runtime side) and used to
compare with placement/__init__.pyi (stub side)."""
import inspect
import typing

import placement

SPECIAL = ("__init__", "__len__", "__getitem__", "__iter__")


def fmt(t):
    """An annotation as stub text: int, Optional[str], List[int], Topology."""
    if t is inspect.Parameter.empty:
        return None
    if isinstance(t, str):
        return repr(t)
    if t is None or t is type(None):
        return "None"
    if isinstance(t, type) and not typing.get_args(t):
        return t.__name__
    text = repr(t)
    for prefix in ("typing.", "placement.core.", "placement.", "collections.abc."):
        text = text.replace(prefix, "")
    return text.replace("NoneType", "None")


def public_classes():
    return {n: c for n, c in vars(placement).items()
            if isinstance(c, type) and not n.startswith("_") and not issubclass(c, BaseException)
            and not (issubclass(c, tuple) and hasattr(c, "_fields"))}


def public_members(cls):
    """name -> function (staticmethods unwrapped) or property, of cls and its
    placement bases (Placement is a list: its own methods only)."""
    out = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__ not in ("placement", "placement.core"):
            continue
        for name, m in vars(klass).items():
            if name.startswith("_") and name not in SPECIAL:
                continue
            if isinstance(m, staticmethod):
                out[name] = ("static", m.__func__)
            elif inspect.isfunction(m):
                out[name] = ("method", m)
            elif isinstance(m, property):
                out[name] = ("property", m)
    return out


def signature_text(fn, drop_self):
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    parts = []
    for i, p in enumerate(params):
        if i == 0 and drop_self:
            parts.append("self")
            continue
        star = "*" if p.kind == p.VAR_POSITIONAL else "**" if p.kind == p.VAR_KEYWORD else ""
        ann = fmt(p.annotation)
        text = star + p.name + (": " + ann if ann else "")
        if p.default is not p.empty:
            text += " = ..."
        parts.append(text)
    ret = fmt(sig.return_annotation)
    return "(%s)%s" % (", ".join(parts), " -> " + ret if ret else "")
