"""The score sheet of a physical game (classic and grey wall), scored by the engine.

A sheet is a plain dict (JSON-serialisable, so it lives in a server-side session): the players' names, their
walls and scores so far, the rounds scored and the round being entered (``pending``: the wall cells tapped, the
floor items, who took the first-player marker).

No rule is computed here.  Each check and each score comes from an engine state built with the public API: the
position the table has reached is written as state text (``from_text``: walls and scores so far, one complete
pattern line for each tile placed this round, the floors, the marker), one last draft from the centre ends the
round (into a pattern line that stays incomplete, so it scores nothing), and on the grey wall the engine then asks
for each tile's column (``W`` moves, the column the user tapped).  What the engine refuses (a colour already in
that row, or column on the grey wall; a cell already taken; more than 7 floor items; more tiles of a colour than
the game has) is refused with the engine's message.  Only a second tile in one wall row in one round is named
here: in a state it cannot even be written down (a row has one pattern line).

Per-tile points are differences of such states with the same floors: the scores with the first k tiles of each
player minus those with the first k - 1 (tiling is top to bottom and earlier tiles count).
"""

from .._backends import game_info
from .._errors import IllegalMoveError, StateFormatError

_INFO = game_info("classic")
COLOURS = _INFO.colours
_WALL = _INFO.wall_pattern
PER_COLOUR = _INFO.tiles_per_colour  # 20
ALL_TILES = PER_COLOUR * len(COLOURS)  # 100, all in the bag at the start
FACTORY_TILES = 4  # tiles a factory is filled with (rules section 1)
FLOOR_SPACES = 7  # what the floor input offers; the engine is the one that refuses an 8th item
COLOUR_WORDS = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}  # (i18n.T keys)
_BASE = 1000  # added to every score in the probes, so that no floor penalty is clamped there


class SheetError(ValueError):
    """A round entry that the rules refuse; the message is the engine's (or names the row).  ``key`` and
    ``fields``: the same message in the web app's translations (i18n.T), where it has one."""

    def __init__(self, message, key=None, **fields):
        super().__init__(message)
        self.key, self.fields = key, fields


def new_sheet(variant, names):
    if variant not in ("classic", "grey"):
        raise SheetError("variant: %r is not classic or grey" % (variant,))
    if not isinstance(names, list) or not 2 <= len(names) <= 4:
        raise SheetError("players: give 2 to 4 names")
    clean = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise SheetError("player %d: the name is not text" % i)
        clean.append(" ".join(name.split())[:30])  # "": the seat's default name (name_of)
    n = len(clean)
    return {"variant": variant, "names": clean, "walls": [["....."] * 5 for _ in range(n)],
            "scores": [0] * n, "rounds": [], "over": False, "final": None,
            "pending": _empty_round(n)}


def name_of(sheet, p):
    """Seat ``p``'s name, as the sheet's messages say it: the name typed, or for a seat left unnamed ("" in
    ``sheet["names"]``) "Player N", which the pages show in their own language (views.sheet_names)."""
    return sheet["names"][p] or "Player %d" % p


def _empty_round(n):
    return {"tiles": [[] for _ in range(n)], "floors": [0] * n, "marker": None}


def cell_colour(variant, row, col):
    """The colour printed on a classic wall cell (None on the grey wall): the board's printed pattern (B Y R K W,
    shifted one cell a row), shown to the user; the engine refuses any tile off it."""
    if variant != "classic":
        return None
    return _WALL[row][col]


def _name(sheet, message):
    """An engine message about seat N, with the player's name: ``field p1: ...`` -> ``Anna: ...``."""
    for p in range(len(sheet["names"])):
        name = name_of(sheet, p)
        prefix = "field p%d: " % p
        if message.startswith(prefix):
            return "%s: %s" % (name, message[len(prefix):])
        for who in ("player %d " % p, "player %d:" % p):
            if message.startswith(who):
                return name + message[len(who) - 1:]
    return message


def _used(walls, tiles_by_player):
    """Tiles of each colour on the walls and in the round's complete pattern lines."""
    used = [0] * 5
    for wall in walls:
        for row in wall:
            for ch in row:
                if ch != ".":
                    used[COLOURS.index(ch)] += 1
    for tiles in tiles_by_player:
        for t in tiles:
            used[COLOURS.index(t["colour"])] += t["row"] + 1
    return used


def _check_colours(used):
    """No colour has more than its 20 tiles (``used``: tiles of each colour in play)."""
    for c in range(5):
        if used[c] > PER_COLOUR:
            name = COLOUR_WORDS[COLOURS[c]]
            raise SheetError("more %s tiles on the walls, lines and floors than the game's %d" % (name, PER_COLOUR),
                             "too_many_tiles", colour=name, n=PER_COLOUR)


def _line_tiles(tiles_by_player):
    """Tiles of each colour in the pattern lines completed in a round (``tiles_by_player``: its wall tiles):
    a line of wall row r held r + 1 tiles of its colour."""
    taken = [0] * 5
    for tiles in tiles_by_player:
        for t in tiles:
            taken[COLOURS.index(t["colour"])] += t["row"] + 1
    return taken


def _check_dealt(sheet, tiles_by_player):
    """What the bag and the lid can have dealt by this round, colour by colour (rules sections 1 and 5): a
    round's factories take 4 tiles each from the bag, and the lid (the completed lines' other tiles, the floors)
    is poured back into the bag only when the bag runs out while they are filled.  The bag's first 100 tiles
    last ``100 // F`` whole rounds of F tiles (2, 3, 5 rounds at 4, 3, 2 players): until then no tile comes
    back, so the lines completed in all the rounds so far hold at most 20 of a colour.  The round whose filling
    empties the bag has the bag's last tiles (the colour's 20, less those the earlier lines took) and at most
    ``F * round - 100`` tiles from the lid, of which at most the colour's discarded tiles (those lines' tiles
    less their wall tiles) are of that colour.  Later rounds: the colour's 20 less its wall tiles (_check_colours).
    Floor tiles are left out (their colours are not on the sheet), so every round a game can have is accepted."""
    players = len(sheet["names"])
    dealt = FACTORY_TILES * game_info(sheet["variant"], players).factories  # a round's tiles
    k = len(sheet["rounds"]) + 1
    back = ALL_TILES // dealt + 1  # the first round with tiles from the lid
    if k > back:
        return
    before = [0] * 5
    for r in sheet["rounds"]:
        for c, n in enumerate(_line_tiles(r["tiles"])):
            before[c] += n
    now = _line_tiles(tiles_by_player)
    on_walls = _used(sheet["walls"], [[] for _ in range(players)])
    for c, colour in enumerate(COLOURS):
        name = COLOUR_WORDS[colour]
        if k < back and before[c] + now[c] > PER_COLOUR:
            raise SheetError("%s: %d %s tiles in the pattern lines completed up to round %d, but the game has %d, "
                             "and none comes back from the lid before round %d (%d players)"
                             % (name, before[c] + now[c], name, k, PER_COLOUR, back, players),
                             "colour_lid", colour=name, n=before[c] + now[c], k=k, total=PER_COLOUR, back=back,
                             players=players)
        lid = dealt * k - ALL_TILES
        most = PER_COLOUR - before[c] + min(lid, before[c] - on_walls[c])
        if k == back and now[c] > most:
            raise SheetError("%s: %d %s tiles in the pattern lines completed this round, but at most %d can be in "
                             "play in round %d: what the bag had left and %d tiles drawn from the lid"
                             % (name, now[c], name, most, k, lid), "colour_pour", colour=name, n=now[c], m=most,
                             k=k, d=lid)


def _check_tiles(sheet, tiles_by_player, floors):
    """What the tiles in play allow: a round deals 4 tiles a factory (2 a player plus 1 factories), so the tiles
    the round's complete lines and floors took (each line's own tiles in round 1; later a line may have been
    begun in an earlier round, so at least its last tile) are at most that; and no colour has more than its 20
    tiles on the walls and in the lines. Returns the tiles of each colour in play (_used)."""
    players = len(sheet["names"])
    dealt = FACTORY_TILES * game_info(sheet["variant"], players).factories
    first = not sheet["rounds"]
    taken = sum((t["row"] + 1 if first else 1) for tiles in tiles_by_player for t in tiles) + sum(floors)
    if taken > dealt:
        raise SheetError("%d tiles entered this round (the completed lines%s and the floors), but a round of %d "
                         "players deals only %d" % (taken, "" if first else ", at least one tile each", players,
                                                   dealt),
                         "round_too_many" if first else "round_too_many_later", n=taken, players=players,
                         m=dealt)
    used = _used(sheet["walls"], tiles_by_player)
    _check_dealt(sheet, tiles_by_player)
    _check_colours(used)
    return used


def _text(sheet, tiles_by_player, floors, marker, end, scores, walls=None):
    """State text of the position at the end of the round's drafting: complete pattern lines for the tiles in
    ``tiles_by_player``, ``floors`` items (the marker among them for seat ``marker``), and one tile of colour
    ``end[2]`` in the centre for seat ``end[0]`` to take."""
    players = len(sheet["names"])
    walls = sheet["walls"] if walls is None else walls
    used = _used(walls, tiles_by_player)
    lines_out = []
    for p in range(players):
        lines = ["-"] * 5
        for t in tiles_by_player[p]:
            lines[t["row"]] = t["colour"] * (t["row"] + 1)
        lines_out.append(lines)
    used[COLOURS.index(end[2])] += 1
    floor_out = []
    for p in range(players):
        tiles = []
        for _ in range(floors[p]):
            c = min(range(5), key=lambda k: used[k])  # any colour with tiles left: floor tiles score alike
            used[c] += 1
            tiles.append(COLOURS[c])
        # The marker goes on the floor before the tiles taken with it; on a floor already full of 7 tiles it is
        # kept aside (the engine's rules decision), so 7 tiles and the marker are 7 items.
        on_floor = marker == p and floors[p] < FLOOR_SPACES
        floor_out.append(("M" if on_floor else "") + "".join(sorted(tiles, key=COLOURS.index)))
    _check_colours(used)
    bag = ",".join(str(20 - u) for u in used)
    out = ["azul-state/1", "variant=" + sheet["variant"], "players=%d" % players, "chance=sampled", "seed=0",
           "rng=0000000000000001", "round=%d" % min(len(sheet["rounds"]) + 1, 100), "phase=offer",
           "turn=%d" % end[0], "start=%d" % end[0], "marker=" + ("C" if marker is None else str(marker)),
           "moves=1", "factories=" + ",".join(["-"] * (2 * players + 1)), "center=" + end[2], "bag=" + bag,
           "lid=0,0,0,0,0", "prefill=" + bag + "/0,0,0,0,0"]
    for p in range(players):
        out.append("p%d=%d:%s:%s:%s" % (p, scores[p], "/".join(lines_out[p]), "/".join(walls[p]),
                                        floor_out[p] or "-"))
    return " ".join(out)


def _ends(sheet, tiles_by_player):
    """Candidate last drafts (seat, pattern line 2-5, colour) that leave a pattern line incomplete."""
    players = len(sheet["names"])
    for p in range(players):
        taken = {t["row"] for t in tiles_by_player[p]}
        for row in range(1, 5):
            if row in taken:
                continue
            for colour in COLOURS:
                if colour not in sheet["walls"][p][row]:
                    yield (p, row, colour)


def _play(engine, sheet, tiles_by_player, floors, marker, scores, end, walls=None):
    """The state after the round: the probe's last draft, then the grey wall's columns as tapped."""
    state = engine.from_text(_text(sheet, tiles_by_player, floors, marker, end, scores, walls))
    state.apply("C%s%d" % (end[2], end[1] + 1))
    columns = {(p, t["row"]): t["col"] for p in range(len(tiles_by_player)) for t in tiles_by_player[p]}
    while state.phase == "tiling":
        p, row = state.current_player, state.pending_row
        try:
            state.apply("W%d%d" % (row + 1, columns[(p, row)] + 1))
        except IllegalMoveError as e:
            raise SheetError("%s: %s" % (name_of(sheet, p), e)) from None
    return state


def _pre_bonus(engine, sheet, state):
    scores = list(state.scores)
    if state.is_over:
        for p, wall in enumerate(state.walls):
            scores[p] -= engine.end_bonus(wall, variant=sheet["variant"])["points"]
    return scores


def _sorted_tiles(pending):
    return [sorted(tiles, key=lambda t: t["row"]) for tiles in pending["tiles"]]


def _marker(pending, players):
    m = pending["marker"]
    return m if isinstance(m, int) and 0 <= m < players else None


def evaluate(engine, sheet, pending=None):
    """Score the round ``pending`` (default: the sheet's) on the engine.  Returns the round's result dict;
    raises SheetError with the engine's message for what the rules refuse."""
    pending = sheet["pending"] if pending is None else pending
    players = len(sheet["names"])
    tiles = _sorted_tiles(pending)
    for p in range(players):
        rows = [t["row"] for t in tiles[p]]
        for row in set(rows):
            if rows.count(row) > 1:
                raise SheetError("%s: wall row %d already has a tile this round: one tile a row in a round "
                                 "(the row's one pattern line)" % (name_of(sheet, p), row + 1), "second_tile",
                                 name=name_of(sheet, p), row=row + 1)
    marker = _marker(pending, players)
    floors = pending["floors"]
    used = _check_tiles(sheet, tiles, floors)
    # The probe's last draft takes one more tile: of a colour that has one left.
    end = next((e for e in _ends(sheet, tiles) if used[COLOURS.index(e[2])] < 20), None)
    if end is None:
        raise SheetError("every wall row of every player has a tile this round or is full: this sheet cannot "
                         "score such a round", "no_ends")
    try:
        state = _play(engine, sheet, tiles, floors, marker, sheet["scores"], end)
    except (IllegalMoveError, StateFormatError) as e:
        raise SheetError(_name(sheet, str(e))) from None
    base = [s + _BASE for s in sheet["scores"]]
    # Per-tile points: probes with the first k tiles of every player, the same floors, a base that no penalty
    # reaches (so nothing is clamped and the penalty of the same floor cancels out).
    probes = []
    for k in range(max([len(t) for t in tiles] + [0]) + 1):
        probe = _play(engine, sheet, [t[:k] for t in tiles], floors, marker, base, end)
        probes.append(_pre_bonus(engine, sheet, probe))
    # Across and down: the k-th tile of each player alone with its row (as the wall had it), then alone with
    # its column (with the tiles placed above it this round): the engine's score of a tile with no neighbour
    # the other way is its run, or 1 alone.
    runs = []
    for k in range(len(probes) - 1):
        row_walls, column_walls, lines = [], [], []
        for p in range(players):
            if len(tiles[p]) <= k:
                row_walls.append(["....."] * 5)
                column_walls.append(["....."] * 5)
                lines.append([])
                continue
            t = tiles[p][k]
            wall = sheet["walls"][p]
            row_walls.append(["....." if r != t["row"] else wall[r] for r in range(5)])
            above = {x["row"]: x["colour"] for x in tiles[p][:k] if x["col"] == t["col"]}
            column_walls.append(["." * t["col"] + above.get(r, wall[r][t["col"]]) + "." * (4 - t["col"])
                                 for r in range(5)])
            lines.append([t])
        across = _pre_bonus(engine, sheet, _play(engine, sheet, lines, floors, marker, base, end, row_walls))
        down = _pre_bonus(engine, sheet, _play(engine, sheet, lines, floors, marker, base, end, column_walls))
        runs.append((across, down))
    result = {"tiles": [], "penalty": [], "clamped": [], "before": list(sheet["scores"]),
              "after": _pre_bonus(engine, sheet, state), "floors": list(floors), "marker": marker,
              "over": state.is_over, "walls": [list(w) for w in state.walls]}
    for p in range(players):
        row_points = []
        for k, t in enumerate(tiles[p]):
            across, down = (runs[k][i][p] - probes[0][p] for i in (0, 1))
            row_points.append(dict(t, points=probes[k + 1][p] - probes[k][p], across=across, down=down))
        result["tiles"].append(row_points)
        gained = sum(x["points"] for x in row_points)
        penalty = base[p] + gained - probes[-1][p]
        result["penalty"].append(penalty)
        result["clamped"].append(sheet["scores"][p] + gained - penalty < 0)
    if state.is_over:
        bonuses = [engine.end_bonus(w, variant=sheet["variant"]) for w in state.walls]
        result["bonuses"] = bonuses
        result["final"] = list(state.scores)
        result["winners"] = list(state.winners)
    return result


def tap(engine, sheet, player, row, col, colour=None):
    """Tap a wall cell in the round being entered: add a tile there (on the grey wall of ``colour``), or take
    back a tile tapped this round.  Refused taps raise SheetError and change nothing."""
    _check_seat(sheet, player)
    for what, v in (("row", row), ("column", col)):
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 5:
            raise SheetError("%s: %r is not 1 to 5" % (what, v if not isinstance(v, int) else v + 1))
    tiles = sheet["pending"]["tiles"][player]
    for t in tiles:
        if t["row"] == row and t["col"] == col:
            tiles.remove(t)
            return None
    if sheet["variant"] == "classic":
        colour = cell_colour("classic", row, col)
    elif not (isinstance(colour, str) and len(colour) == 1 and colour in COLOURS):
        raise SheetError("colour: choose one of B Y R K W for the grey wall")
    trial = _copy_pending(sheet["pending"])
    trial["tiles"][player].append({"row": row, "col": col, "colour": colour})
    cell = sheet["walls"][player][row][col]
    if cell != ".":
        raise SheetError("%s: wall row %d, column %d is already taken" % (name_of(sheet, player), row + 1, col + 1))
    evaluate(engine, sheet, trial)
    sheet["pending"] = trial
    return trial


def set_floor(engine, sheet, player, tiles):
    """``player``'s floor holds ``tiles`` tiles this round (the marker apart: see set_marker)."""
    _check_seat(sheet, player)
    if not isinstance(tiles, int) or isinstance(tiles, bool) or not 0 <= tiles <= 99:
        raise SheetError("floor: %r is not a number of tiles" % (tiles,))
    if tiles > FLOOR_SPACES:  # the engine's own words, before its tile counts (the round's tiles use colours)
        raise SheetError("%s: the floor holds more than %d items" % (name_of(sheet, player), FLOOR_SPACES),
                         "floor_full", name=name_of(sheet, player), n=FLOOR_SPACES)
    trial = _copy_pending(sheet["pending"])
    trial["floors"][player] = tiles
    evaluate(engine, sheet, trial)
    sheet["pending"] = trial


def set_marker(engine, sheet, player):
    """The first-player marker went to ``player`` (None: not entered yet).  It is one more floor item, or kept
    aside when the floor already holds 7 tiles."""
    _check_open(sheet)
    if player is not None:  # (None: not entered yet)
        _check_seat(sheet, player)
    trial = _copy_pending(sheet["pending"])
    trial["marker"] = player
    evaluate(engine, sheet, trial)
    sheet["pending"] = trial


def floor_items(pending, player):
    """Floor items of ``player`` in the round being entered, the marker included (as the engine counts them)."""
    n = pending["floors"][player]
    return n + 1 if pending["marker"] == player and n < FLOOR_SPACES else n


def _check_open(sheet):
    if sheet["over"]:
        raise SheetError("the game is over", "game_over")


def _check_seat(sheet, player):
    _check_open(sheet)
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(sheet["names"]):
        raise SheetError("player: %r is not a seat of this game" % (player,))


def _copy_pending(p):
    return {"tiles": [[dict(t) for t in ts] for ts in p["tiles"]], "floors": list(p["floors"]),
            "marker": p["marker"]}


def finish_round(engine, sheet):
    """Score the round entered and start the next (or end the game)."""
    _check_open(sheet)
    if sheet["pending"]["marker"] is None:
        raise SheetError("marker: say who took the first-player marker", "choose_marker")
    result = evaluate(engine, sheet)
    sheet["rounds"].append(result)
    sheet["walls"] = result["walls"]
    sheet["scores"] = result["after"]
    sheet["pending"] = _empty_round(len(sheet["names"]))
    if result["over"]:
        sheet["over"] = True
        sheet["final"] = {"bonuses": result["bonuses"], "scores": result["final"], "winners": result["winners"]}
    return result


def undo_round(sheet):
    """Take back the last round scored (its entries come back as the round being entered)."""
    if not sheet["rounds"]:
        raise SheetError("no round to take back")
    last = sheet["rounds"].pop()
    sheet.pop("record", None)  # a record found for the finished sheet (synth.py) no longer fits
    sheet["scores"] = last["before"]
    walls = [list(w) for w in last["walls"]]
    for p, tiles in enumerate(last["tiles"]):
        for t in tiles:
            row = walls[p][t["row"]]
            walls[p][t["row"]] = row[:t["col"]] + "." + row[t["col"] + 1:]
    sheet["walls"] = walls
    sheet["pending"] = {"tiles": [[{k: t[k] for k in ("row", "col", "colour")} for t in ts] for ts in last["tiles"]],
                        "floors": list(last["floors"]), "marker": last["marker"]}
    sheet["over"], sheet["final"] = False, None
