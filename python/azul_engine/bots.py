"""Bots: the bot protocol, bot specs, reference bots (random, greedy; Monte Carlo tree search from ``mcts``) and hints.

The bot protocol.  A bot is any object with

- ``choose(state) -> action``: an action id from ``state.legal_actions()`` or its notation (a string from
  ``state.legal_moves()``) for the player to move, ``state.current_player``.  ``state`` is the bot's own copy
  of the game: changing it changes nothing.
- optional ``reset(seat, seed)``: called before each game with the bot's seat and a seed for the bot's own
  random choices (``bot_seed(game_seed, seat)``), so that games are reproducible.
- optional ``name``: a short name, written into records (default: the spec).
- optional ``close()``: called once the game is over (external engines stop their process there).
- optional ``hints(state, top)``: the best moves with search statistics (``hint``).

A bot that raises an exception, answers a move that is not legal, or takes longer than the time limit (when one
is set) loses the game by forfeit (``play_match``); the record says so.

Bot specs name a bot and its parameters, with ``:`` (or, after the first parameter, ``,``) between them:

- built-in bots: ``random``, ``greedy``, ``mcts``, ``mcts:2000`` (2000 iterations a move),
  ``mcts:seconds=0.5``, ``mcts:2000:c=1.0``, ``mcts:seconds=0.2:threads=2`` (``mcts.MCTSBot``); ``net`` (the
  guided search with the network that ships for the game), ``net:PATH`` (a weights file of your own),
  ``net:PATH:seconds=0.2``, ``net:policy_only=1`` (the network's move without search) (``mcts.NetBot``);
- a bot of your own: ``package.module:Class[:arg=value,...]``, made as ``Class(arg=value, ...)`` (values are
  converted to the type of the parameter's default, else read as a number, ``true``/``false``/``none``, or
  a string; a bare first value fills the first parameter): ``mybots.flat:FlatMC:playouts=50,depth=2``;
- an installed bot: a name in the entry-point group ``azul_engine.bots`` (``ENTRY_POINT_GROUP``) of an
  installed distribution, for example ``[project.entry-points."azul_engine.bots"] flatmc =
  "mybots.flat:FlatMC"`` in its pyproject.toml, then ``flatmc:playouts=50``;
- an external engine in any language, speaking the line protocol of docs/bot-protocol.md:
  ``cmd:COMMAND ARGS`` (``cmd:python3 examples/random_bot.py --seed 3``).

Built-in names come first, then installed entry points, then modules.  Reference bots draw from their own
SplitMix64 generator, never from the game's, so that a bot's choices do not change the game's draws and the
same seeds give the same games in both engines.

>>> import azul_engine
>>> state = azul_engine.new_game(players=2, seed=7)
>>> RandomBot(seed=1).choose(state) in state.legal_actions()
True
>>> parse_bot_spec("mcts:2000")
('mcts', {'iterations': 2000})
>>> make_bot("mcts:50", seed=1).choose(state) in state.legal_actions()
True
"""

from ._backends import SplitMix64  # noqa: F401 (the generator of rules.md section 5, the games' own)
from ._types import Bot  # noqa: F401 (the bot protocol, as a typing.Protocol)
# The jobs, each in a module of its own: the bots' names, re-exported.
from .bot_specs import (BOTS, ENTRY_POINT_GROUP, BotFactory, BotSpecError, make_bot,  # noqa: F401
                        parse_bot_spec, resolve_bot_spec, split_bot_specs)
from .hints import hint  # noqa: F401
from .matches import BotForfeit, check_date, play, play_match  # noqa: F401
from .mcts import POLICIES, Hint, MCTSBot, NetBot, engine_of  # noqa: F401 (the search bots)
from .simple_bots import BotFailure, GreedyBot, RandomBot, bot_seed, greedy_value  # noqa: F401
from .table import HUMAN, Forfeit, Played, Table, ask, close_bots, play_answer  # noqa: F401

__all__ = ["SplitMix64", "RandomBot", "GreedyBot", "MCTSBot", "NetBot", "BOTS", "ENTRY_POINT_GROUP", "BotSpecError",
           "BotFailure", "BotForfeit", "Forfeit", "Table", "Played", "HUMAN", "BotFactory", "resolve_bot_spec",
           "split_bot_specs", "parse_bot_spec", "make_bot", "bot_seed", "play", "play_match", "hint", "Hint",
           "POLICIES", "engine_of", "Bot", "ask", "play_answer", "close_bots", "check_date", "greedy_value"]
