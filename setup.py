"""Builds the optional C++ engine, azul_engine._cppengine; all other metadata is in pyproject.toml.

The extension is optional: when it does not compile (no compiler, a build error, sources not there), the install
still succeeds with a warning and the package uses its pure-Python engine. Set AZUL_REQUIRE_CPP=1 to make such a
failure fatal instead (CI does). pip hides build output unless run with -v; `python -m azul_engine info` tells
which engines an install has.
"""

import glob
import os
import sys

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

REQUIRE_CPP = os.environ.get("AZUL_REQUIRE_CPP") == "1"
# AZUL_PORTABLE=1 builds the plain C++ fallback of every bit trick (native/include/azul/common/bits.h) instead of
# the compiler's builtins, and the fills' plain draw loop instead of the AVX2 one (common/rng.cpp): what a compiler
# or CPU without them gets. CI builds and tests it that way too.
PORTABLE = os.environ.get("AZUL_PORTABLE") == "1"
# AZUL_SANITIZE=address,undefined builds a sanitizer build instead of the release one (scripts/sanitize.sh):
# -O1, debug info, no LTO, every report fatal.


def sanitizers(value):
    """The -fsanitize= list of AZUL_SANITIZE's value: with "undefined", "float-cast-overflow" too (a double
    converted to an integer it does not fit is undefined behaviour, which GCC's "undefined" does not check and
    Clang's does: search(seconds > 9.2e9) was one, issue 38)."""
    names = [n.strip() for n in value.split(",") if n.strip()]
    if "undefined" in names and "float-cast-overflow" not in names:
        names.append("float-cast-overflow")
    return ",".join(names)


SANITIZE = sanitizers(os.environ.get("AZUL_SANITIZE", ""))
# Windows: MSVC's options (pybind11's helpers make the same test, and add /EHsc, /bigobj and /std:c++17). /O2 is
# its fastest; /fp:precise (its default) does not contract a * b + c since Visual Studio 2022 (as
# -ffp-contract=off below). The C++ has no GCC-only construct without a plain fallback (native/include/azul/common/
# bits.h; tests/test_portable_source.py checks), so MSVC builds the portable code paths. Built by CI's release
# workflow only (.github/workflows/release.yml): not on this project's machines (docs/getting-started.md).
MSVC = sys.platform.startswith("win32") or sys.platform.startswith("cygwin")
if MSVC:
    COMPILE_ARGS = ["/O2", "/DNDEBUG", "/fp:precise", "/utf-8"]
    LINK_ARGS = []
elif SANITIZE:
    COMPILE_ARGS = ["-O1", "-g", "-Wall", "-Wextra", "-fsanitize=" + SANITIZE, "-fno-sanitize-recover=all",
                    "-fno-omit-frame-pointer"]
    LINK_ARGS = ["-fsanitize=" + SANITIZE]
else:
    # -flto lets the compiler inline across the core's files (move generation into apply into tiling):
    # about 5% more random playouts a second.
    # (-flto=auto is GCC's; Apple's Clang takes plain -flto.)
    lto = "-flto" if sys.platform == "darwin" else "-flto=auto"
    COMPILE_ARGS = ["-O3", "-Wall", "-Wextra", "-DNDEBUG", lto]
    LINK_ARGS = [lto]
# No fused multiply-add: the search's floating point must give the pure engine's bits on every CPU (docs/search.md
# section 3; GCC and Clang contract a * b + c on ARM and with -mfma otherwise).
if not MSVC:
    COMPILE_ARGS.append("-ffp-contract=off")

# Compile the .cpp files in parallel (AZUL_BUILD_JOBS=N to choose; default: one job per core).
ParallelCompile("AZUL_BUILD_JOBS").install()

cppengine = Pybind11Extension(
    "azul_engine._cppengine",
    # Every .cpp of the bindings (src/) and of the core (native/src/ and its variant folders): a new file needs no
    # edit here.
    sources=[*sorted(glob.glob("src/*.cpp")), *sorted(glob.glob("native/src/**/*.cpp", recursive=True))],
    include_dirs=["native/include"],
    # Headers as dependencies: a changed header rebuilds the extension, and sdists include them.
    depends=sorted(glob.glob("native/include/azul/**/*.h", recursive=True) + glob.glob("native/src/**/*.h", recursive=True)
                   + glob.glob("src/*.h")),
    cxx_std=17,
    define_macros=[("AZUL_PORTABLE", "1")] if PORTABLE else [],
    extra_compile_args=COMPILE_ARGS,
    extra_link_args=LINK_ARGS,
    # Lets setuptools skip copying a missing binary into the source tree in editable installs.
    optional=not REQUIRE_CPP,
)


class OptionalBuildExt(build_ext):
    """build_ext that turns any failure to build an extension into a warning, unless AZUL_REQUIRE_CPP=1."""

    def build_extension(self, ext):
        try:
            missing = [path for path in ext.sources if not os.path.exists(path)]
            if missing:
                raise FileNotFoundError(f"missing source files: {', '.join(missing)}")
            super().build_extension(ext)
        except Exception as exc:
            if REQUIRE_CPP:
                raise
            self._remove_stale_binaries(ext)
            print(
                f"\nWARNING azul-engine: C++ engine not built ({type(exc).__name__}: {exc}); "
                "the pure-Python engine will be used. Set AZUL_REQUIRE_CPP=1 to make this an error.\n",
                file=sys.stderr,
            )

    def _remove_stale_binaries(self, ext):
        # A binary left by an earlier successful build (in build/, or in python/ after `pip install -e .`)
        # would otherwise be installed or imported as if it matched the current sources.
        build_py = self.get_finalized_command("build_py")
        package = ext.name.rpartition(".")[0]
        filename = os.path.basename(self.get_ext_filename(ext.name))
        for path in (self.get_ext_fullpath(ext.name), os.path.join(build_py.get_package_dir(package), filename)):
            if os.path.exists(path):
                os.remove(path)


setup(ext_modules=[cppengine], cmdclass={"build_ext": OptionalBuildExt})
