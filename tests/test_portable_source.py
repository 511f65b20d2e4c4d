"""The C++ builds with compilers other than GCC and Clang (MSVC on Windows: the release workflow's wheels): every
GCC-only construct in native/ and src/ (``__attribute__``, ``__builtin_*``, vector extensions, ``__int128``,
inline assembly, ``<immintrin.h>``'s AVX2 intrinsics) sits in a preprocessor branch that only GCC and Clang take
(a condition on ``__GNUC__``, or on a macro defined only under one), beside a plain fallback.

The fallbacks themselves are the AZUL_PORTABLE build's (scripts/portable.sh builds them with GCC, checks them with
-pedantic-errors and runs the playout and lockstep tests on them); MSVC itself is not on this project's machines
(docs/getting-started.md, "Wheels and releases").
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GCC_ONLY = re.compile(r"__attribute__|__builtin_|__int128|vector_size|__asm__|\basm\s*\(|<immintrin\.h>|_mm256_|"
                      r"__m256i|target_clones")
GNU_CONDITION = re.compile(r"__GNUC__|__clang__")


def unguarded(text):
    """The (line number, line) of each GCC-only construct of a C++ source not inside a branch that only GCC and
    Clang take.  A macro #defined inside such a branch (AZUL_NETWORK_AVX2) counts as that condition where it is
    tested later; an #else or #elif branch of a GCC-only #if is the fallback, not guarded by it."""
    gnu_macros = set()
    stack = []  # one entry per open #if: whether its current branch is GCC-and-Clang-only
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        directive = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        if directive:
            word, rest = directive.groups()
            condition = rest.split("//")[0]
            # "!defined(__clang__)" beside "defined(__GNUC__)" narrows the branch to GCC; a branch on
            # "!defined(__GNUC__)" is any other compiler's.
            positive = re.sub(r"!\s*defined\s*\(?\s*__clang__\s*\)?", "", condition)
            gnu = (bool(GNU_CONDITION.search(positive)) or any(
                re.search(r"\b%s\b" % re.escape(m), condition) for m in gnu_macros)) and not re.search(
                r"!\s*defined\s*\(?\s*__GNUC__", condition)
            if word in ("if", "ifdef"):
                stack.append(gnu)
            elif word == "ifndef":
                stack.append(False)
            elif word == "elif":
                stack[-1] = gnu
            elif word == "else":
                stack[-1] = False
            elif word == "endif":
                stack.pop()
            elif word == "define" and any(stack):
                gnu_macros.add(rest.split()[0].split("(")[0])
            if word in ("include", "define") and GCC_ONLY.search(line) and not any(stack):
                found.append((number, line.strip()))
            continue
        code = line.split("//")[0]
        if GCC_ONLY.search(code) and not any(stack):
            found.append((number, line.strip()))
    return found


def _sources():
    for top in ("native", "src"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            if os.sep + "tests" in folder:
                continue
            for name in sorted(files):
                if name.endswith((".cpp", ".h")):
                    yield os.path.join(folder, name)


def test_every_gcc_only_construct_is_guarded():
    sources = list(_sources())
    assert len(sources) > 40
    problems = {}
    for path in sources:
        with open(path, encoding="utf-8") as f:
            found = unguarded(f.read())
        if found:
            problems[os.path.relpath(path, ROOT)] = found
    assert problems == {}


def test_the_check_sees_an_unguarded_construct():
    """The check above on samples: a builtin outside any #if, in an #else fallback, and a vector type under
    AZUL_PORTABLE's #if alone are found; the same under __GNUC__ (or a macro defined under it) are not."""
    bad = ("inline int Low(unsigned x) { return __builtin_ctz(x); }\n"
           "#if defined(__GNUC__)\nint a;\n#else\nint b = __builtin_popcount(3);\n#endif\n"
           "#ifndef AZUL_PORTABLE\ntypedef short V __attribute__((vector_size(16)));\n#endif\n"
           "unsigned __int128 wide;\n")
    assert [n for n, _ in unguarded(bad)] == [1, 5, 8, 10]
    good = ("#if defined(__GNUC__) && !defined(AZUL_PORTABLE)\n#define FAST 1\n#include <immintrin.h>\n"
            "inline int Low(unsigned x) { return __builtin_ctz(x); }\n#else\ninline int Low(unsigned x);\n#endif\n"
            "#ifdef FAST\n__attribute__((target(\"avx2\"))) void F();\n#endif\n")
    assert unguarded(good) == []
    # GCC alone ("!defined(__clang__)" beside __GNUC__) is guarded; a branch on !defined(__GNUC__) or on
    # !defined(__clang__) alone is not.
    gcc = "#if defined(__GNUC__) && __GNUC__ >= 9 && !defined(__clang__)\ntypedef char B __attribute__((vector_size(16)));\n#endif\n"
    assert unguarded(gcc) == []
    assert [n for n, _ in unguarded(gcc.replace("defined(__GNUC__) && __GNUC__ >= 9 && ", ""))] == [2]
    assert [n for n, _ in unguarded(gcc.replace("defined(__GNUC__) && __GNUC__ >= 9 && !defined(__clang__)",
                                                "!defined(__GNUC__)"))] == [2]
