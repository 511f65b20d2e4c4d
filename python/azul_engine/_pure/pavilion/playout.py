"""Azul: Summer Pavilion, pure-Python engine: random playouts on the full state.

C++ twin: native/src/pavilion/playout.cpp (sp::PlayRandom; the compact kernel is native/src/pavilion/kernel.cpp).
"""


from ..common import MASK64 as _MASK64, splitmix_next as _splitmix_next
from .tables import FILL, FIRST_PLAYER, OVER, PLAY, SP_KEEP_SETS, SP_PASS_ACTION_BASE


# The light policy passes, while a placement is possible, when below(LIGHT_PASS_ODDS) is 0.
LIGHT_PASS_ODDS = 16


_KEEP_SIZE = tuple(len(k) for k in SP_KEEP_SETS)


def _resume_sampled(g):
    """A playout's first step (C++: sp::ResumeSampled): no history is kept, and an explicit-chance state goes on
    in sampled mode, drawing a pending first player or fill from the game's generator."""
    g._h_complete = False
    if g._explicit:
        g._explicit = False
        if g._phase == FIRST_PLAYER:
            g._start = g._below(g._players)
            g._begin_setup()
        elif g._phase == FILL:
            g._continue_fill()


def play_random(g, policy, light=False):
    """Play ``g`` to its end with ``legal_actions()[below(count)]`` from generator state
    ``policy``; explicit chance is drawn from the game's generator.  Returns the moves played.
    ``light``: the light policy (docs/playouts.md "Rollout policies") chooses play-phase moves instead."""
    if light:
        return _play_light(g, policy)
    _resume_sampled(g)
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


def _play_light(g, policy):
    """play_random with the light policy: in the play phase, a placement (one draw: below(16);
    0 passes instead) chosen uniformly (a second draw), and a pass, when one is made, keeps as
    many tiles as possible (uniformly among those passes, one draw); other phases uniform."""
    _resume_sampled(g)
    plies = 0
    legal_actions, play = g._legal_actions, g._play
    sizes = _KEEP_SIZE
    while g._phase != OVER:
        if g._phase == PLAY:
            legal = g._placements()
            if legal:
                policy, z = _splitmix_next(policy)
                if (z >> 32) * LIGHT_PASS_ODDS >> 32 == 0:
                    legal = None
            if not legal:
                passes = g._passes()
                most = sizes[passes[-1] - SP_PASS_ACTION_BASE]
                legal = [a for a in passes if sizes[a - SP_PASS_ACTION_BASE] == most]
        else:
            legal = legal_actions()
        policy, z = _splitmix_next(policy)
        play(legal[((z >> 32) * len(legal)) >> 32])
        plies += 1
    return plies
