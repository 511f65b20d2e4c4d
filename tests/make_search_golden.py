"""Writes tests/golden/search.json: what the search of main dfad659 (the Python ``MCTSBot`` of that commit, the
algorithm docs/search.md writes down) found from a set of positions, and the moves it played in whole games, so
that test_search.py can check that ``search(..., threads=1)`` and today's ``MCTSBot`` still find exactly that.

Run once with the engine of that commit installed (``python tests/make_search_golden.py``); the positions come
from seeded games played by this file's own chooser, so any engine that plays the same games finds the same
positions.  Each case keeps its state text: the test does not depend on this file.
"""

import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from helpers import Picker  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "golden", "search.json")


def positions(engine):
    """(name, state) pairs from every variant and player count: a round's first move, mid-round, the last round,
    a position with one legal move, grey-wall column choices, Summer Pavilion bonus picks and passes, and an
    explicit-chance game (chance nodes inside the tree)."""
    found = []
    for variant in ("classic", "grey", "summer-pavilion"):
        for players in (2, 3, 4):
            for chance in (False, True):
                if chance and players != 2:
                    continue
                picker = Picker(1000 * players + len(variant) + chance)
                state = engine.new_game(players=players, variant=variant, seed=17 * players + len(variant),
                                        chance="explicit" if chance else "sampled")
                states = []  # every decision position of the game
                while not state.is_over:
                    if state.is_chance_node:
                        outcomes = state.chance_outcomes()
                        state.apply(outcomes[picker.below(len(outcomes))][0])
                        continue
                    states.append(state.clone())
                    state.apply(picker.likely_move(state.legal_moves()))
                tag = "%s-%dp%s" % (variant, players, "-explicit" if chance else "")
                last_round = max(s.round for s in states)
                picks = {
                    "round-start": next(s for s in states if s.round == 2 and s.moves_this_round == 0),
                    "mid-round": states[len(states) // 3],
                    "last-round": next(s for s in states if s.round == last_round),
                }
                single = [s for s in states if len(s.legal_actions()) == 1]
                if single:
                    picks["one-move"] = single[0]
                if variant == "grey":
                    choices = [s for s in states if s.phase == "tiling" and len(s.legal_actions()) > 1]
                    if choices:
                        picks["column-choice"] = choices[0]
                if variant == "summer-pavilion":
                    bonus = [s for s in states if s.phase == "bonus" and len(s.legal_actions()) > 1]
                    if bonus:
                        picks["bonus-pick"] = bonus[0]
                    passes = [s for s in states if s.phase == "play" and len(s.legal_actions()) > 40]
                    if passes:
                        picks["passes"] = passes[len(passes) // 2]
                if chance:
                    picks = {"mid-round": picks["mid-round"], "last-round": picks["last-round"]}
                for name, s in picks.items():
                    found.append(("%s-%s" % (tag, name), s))
    return found


SETTINGS = [
    {},
    {"candidates": 0, "iterations": 120},
    {"policy": "uniform", "rollouts": 1, "margin": 0.1, "c": 1.2},
    {"rollouts": 2, "candidates": 3, "margin": 0.0, "c": 0.0},
]


def main():
    import azul_engine
    from azul_engine import bots

    engine = azul_engine.load_backend("cpp")
    cases = []
    for index, (name, state) in enumerate(positions(engine)):
        for k, extra in enumerate(SETTINGS):
            if k and index % 3 != k % 3:  # every position with the defaults, each a share of the others
                continue
            settings = dict({"iterations": 80}, **extra)
            seed = 1000 + 7 * index + k
            bot = bots.MCTSBot(seed=seed, **settings)
            root = bot.search(state)
            player = state.current_player
            children = sorted(root.children.items())
            rank = max(root.children.items(),
                       key=lambda item: (item[1].visits, item[1].totals[player] / item[1].visits, -item[0]))[0]
            cases.append({
                "name": name, "text": state.to_text(), "seed": seed, "settings": settings,
                "visits": {str(a): n.visits for a, n in children},
                "values": {str(a): repr(n.totals[player] / n.visits) for a, n in children},
                "action": rank,
                "next_seed": bot.rng.state,
            })
    games = []
    for players, variant, spec, seed in ((2, "classic", "mcts:40", 3), (3, "grey", "mcts:25:rollouts=2", 4),
                                         (2, "summer-pavilion", "mcts:20", 5)):
        specs = [spec] + ["greedy"] * (players - 1)
        match = bots.play_match(engine, players, variant, seed, specs)
        assert match.forfeit is None
        games.append({"players": players, "variant": variant, "seed": seed, "specs": specs,
                      "record": json.loads(match.state.record_json()), "scores": match.scores})
    with open(OUT, "w") as f:
        json.dump({"made_by": "tests/make_search_golden.py at main dfad659 (MCTSBot in Python)",
                   "cases": cases, "games": games}, f, indent=1)
        f.write("\n")
    print("%d cases, %d games -> %s" % (len(cases), len(games), OUT))


if __name__ == "__main__":
    main()
