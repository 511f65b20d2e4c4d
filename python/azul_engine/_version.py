"""The package's version, its one source: pyproject.toml reads it (``[tool.setuptools.dynamic]``), and
``azul_engine.__version__`` and ``azul-engine --version`` show it."""

__version__ = "0.1.0"
