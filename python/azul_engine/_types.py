"""The types that the tools' annotations share: a game state of either engine, a move, a record, an engine module
and the bot protocol (``azul_engine.bots.Bot`` re-exports it).

Nothing here does anything at run time: the state classes come from the C++ engine's type stub
(``_cppengine.pyi``), read by type checkers only (``TYPE_CHECKING``), since both engines' classes have the API it
describes (tests/test_parity.py).  A pure-Python engine's ``GameState`` is, to a type checker, the stub's.
The aliases are ``typing.Union`` (not ``X | Y``), so that they evaluate on Python 3.9.
"""

from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, Optional, Protocol, Sequence, Union

if TYPE_CHECKING:  # the classes as type checkers know them (the tools import them from here, for annotations)
    from ._cppengine import GameInfo as GameInfo  # noqa: F401
    from ._cppengine import GameState as GameState
    from ._cppengine import PavilionState as PavilionState
    from ._cppengine import SearchResult as SearchResult  # noqa: F401

__all__ = ["State", "Move", "Record", "Engine", "AnyEngine", "EngineLike", "Bot"]

State = Union["GameState", "PavilionState"]
"""A game state of either engine: classic or grey-wall Azul (``GameState``), or Summer Pavilion."""

Move = Union[int, str]
"""A move as the states take it: an action id or its notation."""

Record = Dict[str, Any]
"""A game record ("azul-record" version 1, records.md), as ``json.loads`` reads it."""


class Engine(Protocol):
    """An engine module, as the tools take one: ``azul_engine`` itself, ``azul_engine.load_backend(name)``, or
    ``engine_of(state)``.  Only what the tools call of it is named here."""

    def new_game(self, players: int = ..., variant: str = ..., seed: Optional[int] = ...,
                 chance: str = ...) -> State: ...

    def end_bonus(self, wall: Union[str, Sequence[str]], variant: Optional[str] = ...) -> Dict[str, int]: ...

    def from_text(self, text: str) -> State: ...


AnyEngine = Union[Engine, ModuleType]
"""An engine module: ``Engine``, or a module as ``load_backend`` returns it (typed ``ModuleType``)."""

EngineLike = Union[None, str, Engine, ModuleType]
"""An engine module, a backend name (``"cpp"``, ``"python"``) or None for the active engine."""


class Bot(Protocol):
    """The bot protocol (``azul_engine.bots`` has its text): an object with ``choose(state)``, which answers an
    action id from ``state.legal_actions()`` or its notation.  The optional methods (``reset(seat, seed)``,
    ``close()``, ``hints(state, top)``, ``game_over(state)``) and ``name`` are looked up with ``getattr``, so they
    are not part of the protocol's type."""

    def choose(self, state: State) -> Move: ...

