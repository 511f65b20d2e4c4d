"""The engine API's reference, made from the type stubs: a Sphinx directive, ``azul-api``, that lists the names it
is given under their public module, ``azul_engine`` (``azul_engine.new_game``, ``azul_engine.GameState``), each
with its types from the stubs (``python/azul_engine/_cppengine.pyi`` and ``__init__.pyi``, which describe both
engines: tests/test_parity.py), every overload, and its docstring from the pure-Python engine (the reference of
both engines' behaviour); a class with every public member of its stub (properties with their types, methods with
their signatures), each with its docstring.

    ```{eval-rst}
    .. azul-api:: new_game from_text GameState
    ```

``entries(names)`` is the text the directive parses (reStructuredText); tests/test_docs.py checks, without
building the site, that the pages name every public name and that each entry has a one-line docstring.
"""

import ast
import importlib
import inspect
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = os.path.join(ROOT, "python", "azul_engine")
STUBS = (os.path.join(PACKAGE, "_cppengine.pyi"), os.path.join(PACKAGE, "__init__.pyi"))


def _stub_nodes():
    """Name -> list of the stubs' definitions of it (several for @overload), from both stubs; and the stub's
    module-level type aliases (``_State``), which the signatures are shown with expanded."""
    nodes, aliases = {}, {}
    for path in STUBS:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                nodes.setdefault(node.name, []).append(node)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                nodes.setdefault(node.target.id, []).append(node)
            elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                name = node.targets[0].id
                if name.startswith("_") and name != "__all__":
                    aliases[name] = ast.unparse(node.value)
    return nodes, aliases


def _type(node, aliases):
    """An annotation as the reference shows it: the stub's text, its private aliases expanded, typing's long
    names shortened (``npt.NDArray[np.float32]`` stays as it is: the stub's own words)."""
    text = ast.unparse(node)
    for _ in range(3):
        for alias, value in aliases.items():
            text = re.sub(r"\b%s\b" % re.escape(alias), value, text)
    return text.replace("'", '"')


def _signature(function, aliases, method=False):
    """``(params) -> result`` of a stub ``def`` (``self`` left out)."""
    args = function.args
    parts = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for arg, default in zip(positional, defaults):
        if method and arg is positional[0] and arg.arg in ("self", "cls"):
            continue
        parts.append(_param(arg, default, aliases))
    if args.vararg:
        parts.append("*" + args.vararg.arg)
    elif args.kwonlyargs:
        parts.append("*")
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        parts.append(_param(arg, default, aliases))
    result = " -> " + _type(function.returns, aliases) if function.returns is not None else ""
    return "(%s)%s" % (", ".join(parts), result)


def _param(arg, default, aliases):
    text = arg.arg
    if arg.annotation is not None:
        text += ": " + _type(arg.annotation, aliases)
    if default is not None:
        text += (" = " if arg.annotation is not None else "=") + ast.unparse(default).replace("'", '"')
    return text


def _pure(name):
    """The pure-Python engine's object of a public name (its docstrings are the API's), or the package's for the
    names the package itself defines (load_backend, the errors, BACKEND)."""
    engine = importlib.import_module("azul_engine._pyengine")
    if name in engine.__all__:
        return getattr(engine, name)
    return getattr(importlib.import_module("azul_engine"), name)


# The constants' docstrings (a constant has no docstring of its own: Python gives it its type's).
CONSTANTS = {
    "BACKEND": "The engine in use, \"cpp\" or \"python\", chosen by AZUL_BACKEND when the package was first "
               "imported.",
    "NAME": "This engine's name: \"cpp\" or \"python\" (the package's is the active engine's).",
    "VARIANTS": "The variants: \"classic\", \"grey\" and \"summer-pavilion\".",
    "COLOURS": "The classic colours' letters, in colour order: B (blue), Y (yellow), R (red), K (black), "
               "W (white).",
    "MAX_ROUNDS": "The most rounds a classic or grey game can last (a game that never completes a row stops "
                  "there: rules section 4).",
    "NUM_ACTIONS": "Action ids of classic and grey Azul, 0-313, for every player count.",
    "NUM_DRAFT_ACTIONS": "Draft actions (ids 0-299): (source * 5 + colour) * 6 + destination.",
    "TILE_ACTION_BASE": "The first grey-wall tiling id (300-304: the pending line's tile in column 0-4).",
    "DRAW_ACTION_BASE": "The first chance id of a drawn tile (305-309: a tile of colour 0-4; chance=\"explicit\").",
    "FIRST_PLAYER_ACTION_BASE": "The first chance id of the starting seat (310-313: seat 0-3 starts round 1).",
    "CHANCE": "current_player at a chance node and once the game is over (-1).",
    "TEXT_VERSION": "The state text's format version (the azul-state/N that to_text writes and from_text reads).",
    "PORTABLE": "Whether the C++ engine was built with every portable fallback (AZUL_PORTABLE=1); the pure "
                "engine's is True.",
    "VECTORISED": "Whether the C++ engine draws the round fills four generator outputs at a time with AVX2 "
                  "(chosen at run time; the games are the same); the pure engine's is False.",
    "SP_COLOURS": "Summer Pavilion's colours' letters, in colour order (the wild colour of round r is the r-th).",
    "SP_STARS": "Summer Pavilion's stars' letters: the six colour stars, then the centre star.",
    "SP_KEEP_SETS": "Summer Pavilion's multisets of at most four tiles a player may keep when passing, in pass-id "
                    "order.",
    "SP_NUM_ACTIONS": "Action ids of Summer Pavilion, 0-1797, for every player count.",
    "SP_PLACE_ACTION_BASE": "Summer Pavilion's first placement id (phase 2).",
    "SP_BONUS_ACTION_BASE": "Summer Pavilion's first bonus-tile id.",
    "SP_PASS_ACTION_BASE": "Summer Pavilion's first pass id (one a kept multiset, SP_KEEP_SETS).",
    "SP_DRAW_ACTION_BASE": "Summer Pavilion's first chance id of a drawn tile (chance=\"explicit\").",
    "SP_FIRST_PLAYER_ACTION_BASE": "Summer Pavilion's first chance id of the starting seat.",
}


def _doc(obj, name):
    """The docstring of a public object (or of a member), as reStructuredText lines; empty when it has none."""
    if name in CONSTANTS:
        return [CONSTANTS[name]]
    doc = inspect.getdoc(obj) if obj is not None else None
    if doc and isinstance(obj, (int, str, tuple, bool, float)) and doc == inspect.getdoc(type(obj)):
        doc = None
    return doc.splitlines() if doc else []


def _member(cls, name):
    """A class's member as written (a property, a slot, a staticmethod), for its docstring."""
    try:
        member = inspect.getattr_static(cls, name)
    except AttributeError:
        return None
    if isinstance(member, (staticmethod, classmethod)):
        return member.__func__
    return member


def _field_docs(cls):
    """A class's attributes documented by ``#:`` comments (a dataclass's fields), as autodoc reads them."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return {}
    return {m.group(2): m.group(1).strip() for m in re.finditer(r"^\s*#: (.*)\n\s*(\w+)\s*:", source, re.M)}


def _indent(lines, by):
    return [(" " * by + line) if line.strip() else "" for line in lines]


def entries(names):
    """The reference of ``names`` (public names of azul_engine) as reStructuredText lines, and the list of
    ``(qualified name, first docstring line)`` it documents, for the tests."""
    nodes, aliases = _stub_nodes()
    out, documented = [".. py:currentmodule:: azul_engine", ""], []
    for name in names:
        defs = nodes.get(name)
        obj = _pure(name)
        if not defs:
            # Imported by the stubs from a typed module (SearchResult, the errors): autodoc reads that module's
            # own annotations and docstrings.
            if not inspect.isclass(obj):
                raise ValueError("azul-api: %r is not in the stubs (%s)" % (name, ", ".join(map(os.path.basename,
                                                                                            STUBS))))
            directive = "autoexception" if issubclass(obj, BaseException) else "autoclass"
            out += [".. %s:: azul_engine.%s" % (directive, name), "   :members:", "   :undoc-members:", ""]
            doc = _doc(obj, name)
            documented.append((name, doc[0] if doc else ""))
            if not issubclass(obj, BaseException):
                fields = _field_docs(obj)
                for member in sorted(set(vars(obj)) | set(fields)):
                    if not member.startswith("_"):
                        mdoc = [fields[member]] if member in fields else _doc(_member(obj, member), None)
                        documented.append((name + "." + member, mdoc[0] if mdoc else ""))
            continue
        node = defs[-1]
        if isinstance(node, ast.FunctionDef):
            signatures = [_signature(d, aliases) for d in defs if isinstance(d, ast.FunctionDef)]
            out.append(".. py:function:: " + ("\n" + " " * 16).join(name + s for s in signatures))
            doc = _doc(obj, name)
            out += [""] + _indent(doc, 3) + [""]
            documented.append((name, doc[0] if doc else ""))
        elif isinstance(node, ast.AnnAssign):
            out.append(".. py:data:: " + name)
            out.append("   :type: " + _type(node.annotation, aliases))
            value = getattr(importlib.import_module("azul_engine"), name)
            if name not in ("BACKEND", "NAME", "PORTABLE", "VECTORISED") and isinstance(value, (int, str)):
                out.append("   :value: " + repr(value))
            doc = _doc(value, name)
            out += [""] + _indent(doc, 3) + [""]
            documented.append((name, doc[0] if doc else ""))
        elif isinstance(node, ast.ClassDef):
            bases = [ast.unparse(b) for b in node.bases]
            directive = "exception" if any(b.endswith(("Error", "Exception")) for b in bases) else "class"
            signature = ""
            init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
            if init is not None:
                signature = _signature(init, aliases, method=True).split(" -> ")[0]
            out.append(".. py:%s:: %s%s" % (directive, name, signature))
            doc = _doc(obj, name)
            out += [""] + _indent(doc, 3) + [""]
            documented.append((name, doc[0] if doc else ""))
            out += _members(node, obj, name, aliases, documented)
    return out, documented


def _members(node, cls, cname, aliases, documented):
    out, seen = [], {}
    for item in node.body:
        if isinstance(item, ast.FunctionDef) and not item.name.startswith("_"):
            seen.setdefault(item.name, []).append(item)
    for name, defs in seen.items():
        decorators = {ast.unparse(d) for d in defs[-1].decorator_list}
        member = _member(cls, name)
        doc = _doc(member, None)
        if "property" in decorators:
            out.append("   .. py:property:: " + name)
            out.append("      :type: " + _type(defs[-1].returns, aliases))
        else:
            signatures = [_signature(d, aliases, method="staticmethod" not in decorators) for d in defs]
            out.append("   .. py:method:: " + ("\n" + " " * 18).join(name + s for s in signatures))
            if "staticmethod" in decorators:
                out.append("      :staticmethod:")
        out += [""] + _indent(doc, 6) + [""]
        documented.append((cname + "." + name, doc[0] if doc else ""))
    return out


def setup(app):
    from docutils.parsers.rst import Directive
    from docutils.statemachine import StringList
    from sphinx.util.nodes import nested_parse_with_titles
    from docutils import nodes

    class AzulApi(Directive):
        required_arguments = 1
        final_argument_whitespace = True
        has_content = False

        def run(self):
            lines, _ = entries(self.arguments[0].split())
            node = nodes.section()
            node.document = self.state.document
            nested_parse_with_titles(self.state, StringList(lines, source="azul-api"), node)
            return node.children

    app.add_directive("azul-api", AzulApi)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
