"""Split one pure-engine module into _pure/<variant>/<job>.py modules (one-off tool for issue 12).

usage: python split_pure.py SPEC.py   (SPEC defines SOURCE, PACKAGE_DIR, CLASS, LEAVES, MODULES, DEFAULT,
                                       TOP_IMPORT_PREFIX)
"""
import ast
import builtins
import os
import re
import sys
import textwrap

spec = {}
exec(open(sys.argv[1]).read(), spec)
SOURCE, OUT, CLASS = spec["SOURCE"], spec["PACKAGE_DIR"], spec["CLASS"]
MODULES = spec["MODULES"]  # name -> dict(banner=..., top=[names], methods=[names])
DEFAULT = spec["DEFAULT"]  # module of everything not listed
LEAVES = spec["LEAVES"]  # modules imported at the top by others (import-time dependencies), in order
SKIP = set(spec.get("SKIP", ()))  # top-level names not copied (the assembly re-creates them)

src = open(SOURCE).read()
lines = src.split("\n")
tree = ast.parse(src)


def node_name(n):
    if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
        return [n.name]
    if isinstance(n, ast.Assign):
        out = []
        for t in n.targets:
            for x in ast.walk(t):
                if isinstance(x, ast.Name):
                    out.append(x.id)
        return out
    if isinstance(n, ast.AnnAssign):
        return [n.target.id]
    return []


def segment(n, prev_end):
    """Source of node n with the comment lines right above it (not section banners)."""
    start = (n.decorator_list[0].lineno if getattr(n, "decorator_list", None) else n.lineno) - 1
    k = start
    while k > prev_end and lines[k - 1].startswith("#") and not lines[k - 1].startswith("# ----"):
        k -= 1
    # drop a banner title line directly above (a "# Title" line right under a "# ----" line)
    seg = lines[k:n.end_lineno]
    while seg and (seg[0].startswith("# ---") or (k > 0 and lines[k - 1].startswith("# ---") and seg[0] is lines[k]
                                                    and False)):
        seg = seg[1:]
    return "\n".join(seg)


imports = {}  # name -> import line (original file's imports)
import_nodes = []
assign = {}  # top-level name -> module
for mod, m in MODULES.items():
    for name in m.get("top", ()):
        assign[name] = mod
method_module = {}
for mod, m in MODULES.items():
    for name in m.get("methods", ()):
        method_module[name] = mod

body = {mod: [] for mod in MODULES}  # list of (kind, text, node)
defined = {mod: set() for mod in MODULES}
prev_end = 0
cls_node = None
current = None
for n in tree.body:
    if isinstance(n, (ast.Import, ast.ImportFrom)):
        text = ast.get_source_segment(src, n)
        for a in n.names:
            imports[a.asname or a.name.split(".")[0]] = (n, a)
        prev_end = n.end_lineno
        continue
    if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and n.lineno == 1:
        prev_end = n.end_lineno
        continue
    names = node_name(n)
    if names and names[0] == "__all__" or any(x in SKIP for x in names):
        prev_end = n.end_lineno
        continue
    if isinstance(n, ast.ClassDef) and n.name == CLASS:
        cls_node = n
        mod = assign.get(CLASS, DEFAULT)
        current = mod
        body[mod].append(("class", n, prev_end))
        defined[mod].add(CLASS)
        prev_end = n.end_lineno
        continue
    mod = None
    for x in names:
        if x in assign:
            mod = assign[x]
    if mod is None:
        if isinstance(n, ast.Expr):  # a call like make_atomic(...): stays with the previous node's module
            mod = current or DEFAULT
        else:
            mod = DEFAULT
    current = mod
    body[mod].append(("node", n, prev_end))
    defined[mod].update(names)
    prev_end = n.end_lineno

# The class: methods split out.
moved = {mod: [] for mod in MODULES}
kept_methods = []
for item in cls_node.body:
    name = getattr(item, "name", None)
    if isinstance(item, ast.FunctionDef) and name in method_module and not item.decorator_list:
        moved[method_module[name]].append(item)
    else:
        kept_methods.append(item)
unassigned = set(method_module) - {i.name for ms in moved.values() for i in ms}
if unassigned:
    print("WARNING: methods listed but not found (or decorated):", sorted(unassigned))

top_names = set(assign) | {x for mod in defined for x in defined[mod]}
owner = {}
for mod in MODULES:
    for x in defined[mod]:
        owner[x] = mod
for mod, items in moved.items():
    for item in items:
        if item.name in owner:
            sys.exit("method %s collides with top-level name in %s" % (item.name, owner[item.name]))

BUILTINS = set(dir(builtins))


def used_names(nodes):
    out = set()
    for n in nodes:
        for x in ast.walk(n):
            if isinstance(x, ast.Name):
                out.add(x.id)
    return out


def import_time_names(nodes):
    """Names evaluated when the module runs (not inside function bodies)."""
    out = set()

    def visit(x, in_func):
        if isinstance(x, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for d in getattr(x, "decorator_list", []):
                visit(d, in_func)
            args = x.args
            for d in args.defaults + [d for d in args.kw_defaults if d]:
                visit(d, in_func)
            return
        if isinstance(x, ast.Name) and not in_func:
            out.add(x.id)
        for c in ast.iter_child_nodes(x):
            visit(c, in_func)

    for n in nodes:
        visit(n, False)
    return out


def class_text(cls, keep):
    """The class source without the moved methods."""
    keep_ids = {id(k) for k in keep}
    out_lines = lines[(cls.decorator_list[0].lineno if cls.decorator_list else cls.lineno) - 1:cls.body[0].lineno - 1]
    # keep the docstring / body items in order, with comments right above each kept item
    prev = cls.body[0].lineno - 1
    for item in cls.body:
        start = (item.decorator_list[0].lineno if getattr(item, "decorator_list", None) else item.lineno) - 1
        k = start
        while k > prev and lines[k - 1].strip().startswith("#"):
            k -= 1
        if id(item) in keep_ids:
            seg = lines[k:item.end_lineno]
            out_lines.extend(seg)
            out_lines.append("")
        prev = item.end_lineno
    while out_lines and not out_lines[-1].strip():
        out_lines.pop()
    return "\n".join(out_lines)


def method_text(item, prev_line):
    start = item.lineno - 1
    k = start
    while k > prev_line and lines[k - 1].strip().startswith("#") and not lines[k - 1].strip().startswith("# --"):
        k -= 1
    return textwrap.dedent("\n".join(lines[k:item.end_lineno]))


prev_of = {}
p = cls_node.body[0].lineno - 1
for item in cls_node.body:
    prev_of[id(item)] = p
    p = item.end_lineno

order = list(MODULES)
os.makedirs(OUT, exist_ok=True)
rel = spec["TOP_IMPORT_PREFIX"]  # "..." : from the variant package to azul_engine
for mod in order:
    m = MODULES[mod]
    parts = []
    nodes = []
    for kind, n, pe in body[mod]:
        if kind == "class":
            parts.append(class_text(n, kept_methods))
            nodes.append(n)
            block = ["# The methods written in the modules of their jobs (each module's banner names its C++ twin)."]
            for o, items in moved.items():
                if items and o != mod:
                    names = sorted(i.name for i in items)
                    block.append("from .%s import (  # noqa: E402\n    %s,\n)" % (o, ",\n    ".join(names)))
            names = ", ".join(sorted(i.name for o, items in moved.items() if o != mod for i in items))
            block.append("for _f in (\n        %s,\n):" % "\n        ".join(textwrap.wrap(names, 100)))
            block.append("    _f.__qualname__ = %r + _f.__name__" % (CLASS + "."))
            block.append("    setattr(%s, _f.__name__, _f)" % CLASS)
            block.append("del _f")
            parts.append("\n".join(block))
        else:
            parts.append(segment(n, pe))
            nodes.append(n)
    meth = moved[mod]
    for item in meth:
        parts.append(method_text(item, prev_of[id(item)]))
        nodes.append(item)
    if not parts:
        print("empty module", mod, "(not written)")
        continue
    need = used_names(nodes)
    if mod == owner.get(CLASS) and any(moved.values()):
        pass
    mine = defined[mod] | {i.name for i in meth}
    at_import = import_time_names([n for n in nodes])
    header, top, bottom = [], [], []
    # original imports
    std, pkg = [], []
    for name, (n, a) in imports.items():
        if name in need and name not in mine:
            if isinstance(n, ast.Import):
                std.append("import %s" % a.name + (" as %s" % a.asname if a.asname else ""))
            else:
                level = n.level
                modname = n.module or ""
                prefix = rel + "." * (level - 1) if level else ""
                target = prefix + modname if level else modname
                if level and not modname:
                    pkg.append("from %s import %s" % (prefix, a.name + (" as %s" % a.asname if a.asname else "")))
                else:
                    pkg.append("from %s import %s" % (target, a.name + (" as %s" % a.asname if a.asname else "")))
    sib = {}
    for name in sorted(need - mine):
        o = owner.get(name)
        if o is None:
            mm = [k for k, v in moved.items() if any(i.name == name for i in v)]
            o = None  # a method name used as a plain name: a local variable, not ours
        if o and o != mod:
            sib.setdefault(o, []).append(name)
    for o, names in sib.items():
        line = "from .%s import %s" % (o, ", ".join(sorted(names)))
        if len(line) > 110:
            line = "from .%s import (  # noqa: E402\n    %s,\n)" % (o, ",\n    ".join(sorted(names)))
        early = o in LEAVES and (mod not in LEAVES or LEAVES.index(o) < LEAVES.index(mod))
        if early or (set(names) & at_import):
            if not early:
                print("NOTE %s needs %s from %s at import time" % (mod, sorted(set(names) & at_import), o))
            top.append(line)
        else:
            bottom.append(line if "noqa" in line else line + "  # noqa: E402")
    banner = "\n\n".join("\n".join(textwrap.wrap(par.replace("\n", " "), 115)) for par in m["banner"].strip().split("\n\n"))
    text = ['"""%s\n"""' % banner]
    if std:
        text.append("\n".join(sorted(set(std))))
    grouped = {}
    plain = []
    for line in sorted(set(pkg)):
        mm = re.match(r"from (\S+) import (.+)$", line)
        if mm.group(2) == "_pycommon":
            plain.append("from .. import common as _pycommon")
            continue
        target = mm.group(1).replace("..._pycommon", "..common")
        grouped.setdefault(target, []).append(mm.group(2))
    for target in sorted(grouped, key=lambda t: (t.count("common"), t)):
        line = "from %s import %s" % (target, ", ".join(grouped[target]))
        if len(line) > 110:
            line = "from %s import (\n    %s,\n)" % (target, ",\n    ".join(grouped[target]))
        plain.append(line)
    top = [t.replace("  # noqa: E402", "") for t in top]
    if plain or top:
        text.append("\n".join(sorted(plain) + top))
    text.append("\n\n\n".join(parts))
    if meth:
        pass
    if bottom:
        text.append("# Names of the sibling modules, imported last: they import this one's.\n" + "\n".join(bottom))
    if m.get("tail"):
        text.append(m["tail"])
    out = "\n\n\n".join(text).rstrip() + "\n"
    out = re.sub(r"\n{4,}", "\n\n\n", out)
    out = re.sub(r'^("""(?:.|\n)*?"""\n)\n\n\n', r"\1\n", out, count=1)
    out = re.sub(r"^(import \w+\n)\n\n\n", r"\1\n", out, flags=re.M)
    open(os.path.join(OUT, mod + ".py"), "w").write(out)
    print("%-14s %5d lines, %d moved methods" % (mod, out.count("\n"), len(meth)))

# The attachment of moved methods: printed for the class's module tail.
attach = {}
for mod, items in moved.items():
    for item in items:
        attach.setdefault(mod, []).append(item.name)
print("ATTACH", attach)
