"""A record for a score sheet: factory deals and drafts that give the sheet's walls and scores.

A score sheet holds what players write down at a table (each round's placed tiles, floor tiles and marker), not
the factories nor the moves that a record ("azul-record", records.md) needs.  This module searches for some
deals and drafts that lead, by the engine's own rules, to exactly the sheet's walls and round scores: it plays a
real engine game (explicit chance, ``deal``), round by round, trying factory contents made of the tiles the
round needs and a bounded depth-first search over the engine's legal drafts.  The record it returns is one game
consistent with the sheet (``audit`` accepts it, and its scores are the sheet's); it need not be the game that
was played.  The search can fail (``SynthesisError``): not every sheet has such a game that this search finds.
"""

import random

from .._backends import game_info

COLOURS = game_info("classic").colours


class SynthesisError(ValueError):
    pass


def _targets(sheet, index):
    """Round ``index``'s goals: per player {row: (colour, column)}, floor tiles, marker holder."""
    rnd = sheet["rounds"][index]
    players = len(sheet["names"])
    lines = [{t["row"]: (t["colour"], t["col"]) for t in rnd["tiles"][p]} for p in range(players)]
    return lines, list(rnd["floors"]), rnd["marker"]


def _future(sheet, index, players):
    """Per player and row, the colour of the next tile placed in that row after round ``index`` (or None)."""
    out = [[None] * 5 for _ in range(players)]
    for later in reversed(sheet["rounds"][index + 1:]):
        for p in range(players):
            for t in later["tiles"][p]:
                out[p][t["row"]] = t["colour"]
    return out


class _Round:
    def __init__(self, engine, sheet, index, rng, budget):
        self.engine, self.sheet, self.index, self.rng, self.budget = engine, sheet, index, rng, budget
        self.players = len(sheet["names"])
        self.lines, self.floors, self.marker = _targets(sheet, index)
        self.future = _future(sheet, index, self.players)
        self.later_need = [0] * 5
        for later in sheet["rounds"][index + 1:]:
            for tiles in later["tiles"]:
                for t in tiles:
                    self.later_need[COLOURS.index(t["colour"])] += t["row"] + 1
        rnd = sheet["rounds"][index]
        self.walls, self.scores = rnd["walls"], rnd["after"]
        self.over = rnd["over"]
        self.final = rnd.get("final")

    def items_target(self, p):
        n = self.floors[p]
        return n + 1 if self.marker == p and n < 7 else n

    # -- factories ----------------------------------------------------------------------------------------------
    def factory_options(self, state):
        """Random factory deals made of the tiles the round needs, then floor tiles and spare tiles."""
        bag = [state.bag.count(c) for c in COLOURS]  # tile strings in colour order
        lid = [state.lid.count(c) for c in COLOURS]
        nf = len(state.factories)
        total = min(4 * nf, sum(bag) + sum(lid))
        pool = [bag[c] for c in range(5)]
        from_lid = total > sum(bag)
        if from_lid:
            pool = [bag[c] + lid[c] for c in range(5)]
        need = []  # (colour, count) deliveries
        for p in range(self.players):
            lines = state.pattern_lines[p]
            for row, (colour, _) in self.lines[p].items():
                have = len(lines[row])
                need.append((colour, row + 1 - have))
        want = [0] * 5
        for colour, n in need:
            want[COLOURS.index(colour)] += n
        if any(want[c] > pool[c] for c in range(5)):
            return
        for _ in range(200):
            counts = list(want)
            spare = [pool[c] - counts[c] for c in range(5)]
            extra = total - sum(counts)
            if extra < 0:
                return
            if from_lid:
                # Every bag tile is dealt before the lid is poured in.
                for c in range(5):
                    take = max(0, bag[c] - counts[c])
                    counts[c] += take
                    spare[c] -= take
                    extra -= take
                if extra < 0:
                    return
            ok = True
            # Tiles the later rounds will need stay in the bag: the extra tiles are of the colours with the
            # most to spare once those are counted.
            surplus = [spare[c] - self.later_need[c] for c in range(5)]
            # Past the floors' tiles, the rest must fit into pattern lines left incomplete (sinks).
            sinks = self.sink_capacity(state)
            floor_tiles = sum(self.floors)
            for i in range(extra):
                choices = [c for c in range(5) if spare[c] > 0]
                if not choices:
                    ok = False
                    break
                if i >= floor_tiles and any(sinks[c] > 0 for c in choices):
                    choices = [c for c in choices if sinks[c] > 0]
                    weights = [sinks[c] + max(surplus[c], 0) * 0.1 for c in choices]
                else:
                    weights = [max(surplus[c], 0) + 0.05 for c in choices]
                c = self.rng.choices(choices, weights)[0]
                counts[c] += 1
                spare[c] -= 1
                surplus[c] -= 1
                if i >= floor_tiles:
                    sinks[c] -= 1
            if not ok:
                return
            tiles = [COLOURS[c] for c in range(5) for _ in range(counts[c])]
            groups = self._arrange(tiles, need, nf)
            if groups is not None:
                yield groups

    def sink_capacity(self, state):
        """Per colour, the tiles that pattern lines left incomplete this round can take: a row with no tile
        placed this round, open to that colour (and to the next tile the sheet places in that row)."""
        caps = [0] * 5
        for p in range(self.players):
            lines, wall = state.pattern_lines[p], state.walls[p]
            for row in range(5):
                if row in self.lines[p]:
                    continue
                room = row - len(lines[row])  # one short of complete
                if room <= 0:
                    continue
                for c in range(5):
                    colour = COLOURS[c]
                    if lines[row] and lines[row][0] != colour:
                        continue
                    if colour in wall[row]:
                        continue
                    later = self.future[p][row]
                    if later is not None and later != colour:
                        continue
                    caps[c] += room
        return caps

    def _arrange(self, tiles, need, nf):
        tiles = list(tiles)
        self.rng.shuffle(tiles)
        groups = [[] for _ in range(nf)]
        # Keep each delivery together where it fits in a factory.
        order = list(need)
        self.rng.shuffle(order)
        for colour, n in order:
            n = min(n, 4)
            slots = [i for i in range(nf) if len(groups[i]) + n <= 4 and colour not in groups[i]]
            if not slots or self.rng.random() < 0.2:
                continue
            i = self.rng.choice(slots)
            for _ in range(n):
                if colour in tiles:
                    tiles.remove(colour)
                    groups[i].append(colour)
        for t in tiles:
            slots = [i for i in range(nf) if len(groups[i]) < 4]
            if not slots:
                return None
            groups[self.rng.choice(slots)].append(t)
        # Factories fill in order: the partial one (if any) last, empty ones after it.
        groups.sort(key=lambda g: -len(g))
        return ["".join(sorted(g, key=COLOURS.index)) for g in groups]

    # -- drafts -------------------------------------------------------------------------------------------------
    def allowed(self, state, move):
        p = state.current_player
        source, colour, dest = move[0], move[1], move[2]
        tiles = state.center if source == "C" else state.factories[int(source) - 1]
        k = tiles.count(colour)
        items = len(state.floors[p])
        target_items = self.items_target(p)
        if source == "C" and state.first_player_marker < 0:
            if p != self.marker:
                return None
            items += 1
        lines = state.pattern_lines[p]
        overflow = k
        kind = 3
        if dest != "F":
            row = int(dest) - 1
            cap = row + 1 - len(lines[row])
            goal = self.lines[p].get(row)
            into = min(k, cap)
            overflow = k - into
            if goal is not None:
                if goal[0] != colour:
                    return None
                kind = 0 if overflow == 0 and into == cap else 1
            else:
                if into >= cap:
                    return None  # would complete a line the sheet does not tile
                later = self.future[p][row]
                if later is not None and later != colour:
                    return None
                kind = 2
        if items + overflow > target_items and target_items < 7:
            return None
        return kind

    def finish(self, state):
        """Grey wall: the sheet's columns; True if the round ended as the sheet says."""
        while state.phase == "tiling":
            p, row = state.current_player, state.pending_row
            goal = self.lines[p].get(row)
            if goal is None:
                return False
            state.apply("W%d%d" % (row + 1, goal[1] + 1))
        if [list(w) for w in state.walls] != [list(w) for w in self.walls]:
            return False
        if self.over:
            return state.is_over and list(state.scores) == self.final
        return not state.is_over and list(state.scores) == self.scores

    def search(self, state, moves, nodes):
        if nodes[0] > self.budget:
            return None
        nodes[0] += 1
        if state.round != self.index + 1 or state.phase in ("tiling", "over", "fill"):
            return moves if self.finish(state.clone()) else None
        scored = []
        for move in state.legal_moves():
            kind = self.allowed(state, move)
            if kind is not None:
                scored.append((kind, self.rng.random(), move))
        scored.sort()
        for _, _, move in scored:
            child = state.clone()
            child.apply(move)
            found = self.search(child, moves + [move], nodes)
            if found is not None:
                return found
        return None

    def play(self, state, options):
        tried = 0
        for factories in self.factory_options(state):
            tried += 1
            if tried > options:
                return False
            trial = state.clone()
            try:
                trial.deal(factories)
            except ValueError:
                continue
            moves = self.search(trial, [], [0])
            if moves is not None:
                state.deal(factories)
                for move in moves:
                    state.apply(move)
                while state.phase == "tiling":
                    p, row = state.current_player, state.pending_row
                    state.apply("W%d%d" % (row + 1, self.lines[p][row][1] + 1))
                return True
        return False


def record(engine, sheet, seconds=20.0, budget=400, options=40, progress=None):
    """An "azul-record" dict whose game gives the finished ``sheet``'s walls and scores; SynthesisError if the
    search finds none within about ``seconds`` (each try replays the game from round 1 with other choices).
    ``progress``: called after each round a try matches, and when a try fails, with ``(tries, best, rounds)``:
    the tries begun, the most rounds one try has matched so far, and the sheet's rounds."""
    import time

    if not sheet.get("over"):
        raise SynthesisError("the game on this sheet is not over")
    players = len(sheet["names"])
    deadline = time.monotonic() + seconds
    attempt = best = 0
    rounds = len(sheet["rounds"])
    while time.monotonic() < deadline:
        rng = random.Random(attempt)
        state = engine.new_game(players=players, variant=sheet["variant"], seed=0, chance="explicit")
        state.apply("~%d" % (attempt % players))
        attempt += 1
        for index in range(rounds):
            if time.monotonic() > deadline or not _Round(engine, sheet, index, rng, budget).play(state, options):
                if progress:
                    progress(attempt, best, rounds)
                break
            best = max(best, index + 1)
            if progress:
                progress(attempt, best, rounds)
        else:
            if state.is_over:
                return state.record()
    raise SynthesisError("no deals and drafts found in %g s that give this sheet's walls and scores" % seconds)
