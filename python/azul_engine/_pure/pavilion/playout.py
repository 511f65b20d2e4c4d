"""Azul: Summer Pavilion, pure-Python engine: random playouts on the full state.

C++ twin: native/src/pavilion/playout.cpp (sp::PlayRandom; the compact kernel is native/src/pavilion/kernel.cpp).
"""


from ..common import MASK64 as _MASK64
from .tables import FILL, FIRST_PLAYER, OVER


def play_random(g, policy, light=False):
    """Play ``g`` to its end with ``legal_actions()[below(count)]`` from generator state
    ``policy``; explicit chance is drawn from the game's generator.  Returns the moves played.
    ``light``: the light policy (README "Rollout policies") chooses play-phase moves instead."""
    if light:
        return _play_light(g, policy)
    g._h_complete = False  # a playout keeps no history
    if g._explicit:
        g._explicit = False
        if g._phase == FIRST_PLAYER:
            g._start = g._below(g._players)
            g._begin_setup()
        elif g._phase == FILL:
            g._continue_fill()
    plies = 0
    legal_actions, play = g._legal_actions, g._play
    while g._phase != OVER:
        legal = legal_actions()
        # splitmix_next, inlined: rules section 5.
        policy = (policy + 0x9E3779B97F4A7C15) & _MASK64
        z = ((policy ^ (policy >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        play(legal[(((z ^ (z >> 31)) >> 32) * len(legal)) >> 32])
        plies += 1
    return plies


# Names of the sibling modules, imported last: they import this one's.
from .state import _play_light  # noqa: E402
