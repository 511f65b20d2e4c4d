"""The score sheet of a physical game of Azul: Summer Pavilion, scored by the engine.

As for the classic sheet (``sheet.py``), nothing is computed here: each event of a round is played on an engine
state written as text with the public API (``from_text``) and the score is read back.  A placement is played
from a hand holding exactly the tiles it pays (the space's number: the colour placed, the wild tiles named, the
rest in that colour), so the engine scores its run and the ornaments it completes (the bonus tiles it owes) and
refuses what the rules forbid with its own message (a space already covered, a colour the star cannot take, the
centre star's colour twice, too many wild tiles).  The start token's loss is the engine's first take from the
centre with that many tiles; a pass is the engine's pass with that many tiles kept and discarded (every loss
stops at 1); after round 6 the last pass ends the game and the engine adds the end bonuses and the kept tiles'
penalty.
"""

from .._backends import game_info
from .._errors import IllegalMoveError, StateFormatError
from .sheet import SheetError, _check_open, name_of  # (a game over refuses every change)

_INFO = game_info("summer-pavilion")
COLOURS = _INFO.colours  # colour order
STARS = _INFO.stars  # star order; an outer star takes its own colour only
ROUNDS = _INFO.rounds  # 6
PER_COLOUR = _INFO.tiles_per_colour  # 22
ALL_TILES = PER_COLOUR * len(COLOURS)  # 132, all in the bag at the start
SUPPLY = 10  # tiles of the supply, drawn at the setup (rules section 3)
FACTORY_TILES = 4
KEEP = 4
MIN_SCORE = _INFO.min_score  # 1: no loss takes a score below it
COLOUR_WORDS = {"P": "purple", "G": "green", "O": "orange", "Y": "yellow", "B": "blue", "R": "red"}  # (i18n.T keys)
STAR_WORDS = dict({s: w + " star" for s, w in COLOUR_WORDS.items()}, C="centre star")  # the engine's words


def wild(round_number):
    return _INFO.wild_colours[round_number - 1]


def new_sheet(names):
    if not isinstance(names, list) or not 2 <= len(names) <= 4:
        raise SheetError("players: give 2 to 4 names")
    clean = []
    for i, name in enumerate(names):
        clean.append(" ".join(name.split())[:30] if isinstance(name, str) else "")  # "": the default (name_of)
    n = len(clean)
    return {"variant": "summer-pavilion", "names": clean, "boards": [["......"] * 7 for _ in range(n)],
            "scores": [5] * n, "rounds": [], "over": False, "final": None, "pending": _empty_round(n)}


def _empty_round(n):
    return {"places": [[] for _ in range(n)], "token": None, "token_tiles": 1, "discarded": [0] * n,
            "kept": [0] * n}


def round_number(sheet):
    return len(sheet["rounds"]) + 1


def _board_after(board, places):
    board = [list(s) for s in board]
    for x in places:
        board[STARS.index(x["star"])][x["space"] - 1] = x["colour"]
    return ["".join(s) for s in board]


def _hand_for(place, wild_colour):
    n, c, w = place["space"], place["colour"], place["wilds"]
    if c == wild_colour:
        return c * n
    return c * max(1, n - w) + wild_colour * w


def _sorted(tiles):
    return "".join(sorted(tiles, key=COLOURS.index))


def _spare(boards, hands, n):
    """``n`` tiles (in colour order) of the colours the boards and ``hands`` use least: kept and discarded
    tiles score alike whatever their colours."""
    used = [0] * len(COLOURS)
    for board in boards:
        for star in board:
            for ch in star:
                if ch != ".":
                    used[COLOURS.index(ch)] += 1
    for hand in hands:
        for ch in hand:
            used[COLOURS.index(ch)] += 1
    out = []
    for _ in range(n):
        c = min(range(len(COLOURS)), key=lambda k: used[k])
        used[c] += 1
        out.append(COLOURS[c])
    return _sorted(out)


def _text(sheet, rnd, phase, turn, boards, hands, scores, passed, centre="-", marker=None):
    players = len(sheet["names"])
    used = [0] * len(COLOURS)
    for board in boards:
        for star in board:
            for ch in star:
                if ch != ".":
                    used[COLOURS.index(ch)] += 1
    for hand in hands:
        for ch in hand:
            used[COLOURS.index(ch)] += 1
    for ch in centre.strip("-"):
        used[COLOURS.index(ch)] += 1
    for c in range(len(COLOURS)):
        if used[c] > PER_COLOUR:
            name = ("purple", "green", "orange", "yellow", "blue", "red")[c]
            raise SheetError("more %s tiles on the boards and in hand than the game's %d" % (name, PER_COLOUR),
                             "too_many_tiles", colour=name, n=PER_COLOUR)
    supply = []
    for _ in range(10):  # the supply, for bonus tiles owed: any tiles left
        c = min(range(len(COLOURS)), key=lambda k: used[k])
        if used[c] >= PER_COLOUR:
            break
        used[c] += 1
        supply.append(COLOURS[c])
    bag = ",".join(str(PER_COLOUR - u) for u in used)
    out = ["azul-state/1", "variant=summer-pavilion", "players=%d" % players, "chance=sampled", "seed=0",
           "rng=0000000000000001", "round=%d" % rnd, "phase=" + phase, "fill=-", "turn=%d" % turn,
           "start=%d" % turn, "marker=" + ("C" if marker is None else str(marker)), "moves=1", "next=-1",
           "owed=0", "factories=" + ",".join(["-"] * (2 * players + 1)), "center=" + (centre or "-"),
           "supply=" + (_sorted(supply) or "-"), "refill=-", "bag=" + bag, "tower=0,0,0,0,0,0",
           "prefill=" + bag + "/0,0,0,0,0,0"]
    for p in range(players):
        out.append("p%d=%d:%s:%s:%d" % (p, scores[p], _sorted(hands[p]) or "-", "/".join(boards[p]),
                                        1 if passed[p] else 0))
    return " ".join(out)


def _probe(engine, sheet, rnd, p, boards, hand, score, move, phase="play", centre="-", others_passed=True,
           marker=None, hands=None):
    players = len(sheet["names"])
    hands = hands or [""] * players
    hands = [hand if q == p else hands[q] for q in range(players)]
    scores = [5] * players
    scores[p] = score
    passed = [others_passed and q != p for q in range(players)]
    if not others_passed and phase == "play":
        passed = [False] * players
    if phase == "acquire":
        passed = [False] * players
    try:
        state = engine.from_text(_text(sheet, rnd, phase, p, boards, hands, scores, passed, centre,
                                       p if marker is None and phase != "acquire" else marker))
        state.apply(move)
    except (IllegalMoveError, StateFormatError) as e:
        message = str(e)
        prefix = "field p%d: " % p
        if message.startswith(prefix):
            message = message[len(prefix):]
        raise SheetError("%s: %s" % (name_of(sheet, p), message)) from None
    return state


def _int(v, lo, hi, what):
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise SheetError("%s: %r is not a whole number from %d to %d" % (what, v, lo, hi))
    return v


def evaluate(engine, sheet, pending=None):
    """Score the round being entered on the engine: every event's points, the scores after the round and, after
    round 6, the end bonuses and the winners.  Raises SheetError (the engine's message) for what the rules
    refuse."""
    pending = sheet["pending"] if pending is None else pending
    players = len(sheet["names"])
    rnd = round_number(sheet)
    w = wild(rnd)
    final_boards = [_board_after(sheet["boards"][p], pending["places"][p]) for p in range(players)]
    events = [[] for _ in range(players)]
    scores = list(sheet["scores"])
    for p in range(players):
        # The start token: the first take from the centre, with that many tiles (the wild colour counted).
        if pending["token"] == p:
            n = pending["token_tiles"]
            colour = next(c for c in COLOURS if c != w)
            state = _probe(engine, sheet, rnd, p, final_boards, "", scores[p], "C" + colour, phase="acquire",
                           centre=colour * n)
            events[p].append({"event": "start-token", "tiles": n, "before": scores[p], "after": state.scores[p]})
            scores[p] = state.scores[p]
        for k, x in enumerate(pending["places"][p]):
            board = _board_after(sheet["boards"][p], pending["places"][p][:k])
            others = [final_boards[q] if q != p else board for q in range(players)]
            if x["space"] == 1 and x["wilds"] and x["colour"] != w:  # (the engine says "costs 1 tiles: at most 0")
                name = name_of(sheet, p)
                raise SheetError("%s: %s space 1 costs one tile, a real %s one: no wild tile can stand in for it"
                                 % (name, STAR_WORDS[x["star"]], COLOUR_WORDS[x["colour"]]), "no_wild_on_1",
                                 name=name, star="star_" + x["star"], colour=COLOUR_WORDS[x["colour"]])
            # The wild colour placed with wild tiles named: the engine refuses it (all its tiles are that colour).
            move = "%s%d%s%d" % (x["star"], x["space"], x["colour"], x["wilds"])
            state = _probe(engine, sheet, rnd, p, others, _hand_for(x, w), scores[p], move)
            owed = state.bonus_owed if state.phase == "bonus" else 0
            events[p].append(dict(x, event="place", points=state.scores[p] - scores[p], bonus_tiles=owed,
                                  before=scores[p], after=state.scores[p]))
            scores[p] = state.scores[p]
        # The pass: keep that many tiles (any colours), lose one point per tile discarded.
        kept, discarded = pending["kept"][p], pending["discarded"][p]
        if True:
            hand = _spare(final_boards, [], kept + discarded)
            keep = _spare(final_boards, [], kept)  # the least used colours first: a part of ``hand``
            state = _probe(engine, sheet, rnd, p, final_boards, hand, scores[p], "-" + keep,
                           others_passed=False)
            events[p].append({"event": "pass", "kept": kept, "discarded": discarded, "before": scores[p],
                              "after": state.scores[p]})
            scores[p] = state.scores[p]
    _check_dealt(sheet, pending, events)
    result = {"events": events, "before": list(sheet["scores"]), "after": scores, "boards": final_boards,
              "over": rnd == ROUNDS, "pending": _copy(pending)}
    if rnd == ROUNDS:
        # The game's last pass (seat 0's; the others have passed, every hand holds its kept tiles): the engine's
        # end scoring.  The same with nothing kept gives the bonuses alone; the difference is the kept tiles'
        # penalty.
        hands = []
        for q in range(players):
            hands.append(_spare(final_boards, hands, pending["kept"][q]))
        passed = [q != 0 for q in range(players)]
        ends = []
        for kept_hands in (hands, [""] * players):
            try:
                state = engine.from_text(_text(sheet, rnd, "play", 0, final_boards, kept_hands, scores, passed,
                                               "-", 0))
                state.apply("-" + kept_hands[0])
            except (IllegalMoveError, StateFormatError) as e:
                raise SheetError(str(e)) from None
            if not state.is_over:
                raise SheetError("the engine did not end the game after round %d" % ROUNDS)
            ends.append(state)
        result["end"] = [{"bonus": ends[1].scores[q] - scores[q], "kept": pending["kept"][q],
                          "penalty": ends[1].scores[q] - ends[0].scores[q]} for q in range(players)]
        result["final"] = list(ends[0].scores)
        result["winners"] = list(ends[0].winners)
    return result


def _paid(places, wild_colour):
    """Tiles of each colour that placements pay (each its hand, _hand_for)."""
    paid = [0] * len(COLOURS)
    for x in places:
        for ch in _hand_for(x, wild_colour):
            paid[COLOURS.index(ch)] += 1
    return paid


def _check_dealt(sheet, pending, events):
    """What the bag and the tower can have dealt by this round (rules sections 3 and 5).

    Hands: a player's hand holds, when they pass, the tiles they keep and discard; it got its tiles from the
    last round's pass (those kept), from this round's factories and centre, and from the bonus tiles their
    placements brought (a bonus tile comes after the placement that owes it: it pays only for later ones, or
    stays in hand).  So each player took at least ``paid + kept + discarded - kept before - bonus tiles in time``
    from the factories and the centre (and at least the start token's tiles), and the players together at most
    the round's deal.

    Colours: the bag's 132 tiles are drawn (the supply's 10 at the setup, each round's factories, a refill of the
    supply for each bonus tile taken) before the tower is poured into it, so while ``10 + rounds * F + bonus tiles
    owed`` is at most 132 no paid tile has come back, and the tiles of a colour paid in all the rounds so far are
    at most its 22.  Later, the tiles of a colour paid this round are at most its 22 less those on the boards,
    plus the round's bonus tiles (a tile paid this round may come back from the tower as one of them).
    Kept, discarded and bonus tiles are left out of the colours (their colours are not on the sheet), so every
    round a game can have is accepted."""
    players = len(sheet["names"])
    rnd = round_number(sheet)
    dealt = FACTORY_TILES * game_info("summer-pavilion", players).factories
    kept_before = sheet["rounds"][-1]["pending"]["kept"] if sheet["rounds"] else [0] * players
    need = 0
    for p in range(players):
        costs = [x["space"] for x in pending["places"][p]]  # a space numbered N costs N tiles
        owed = [e["bonus_tiles"] for e in events[p] if e["event"] == "place"]
        hand = pending["kept"][p] + pending["discarded"][p]  # at the pass
        usable = later = 0  # bonus tiles that can have paid or stayed; the costs of the placements after one
        for cost, bonus in zip(reversed(costs), reversed(owed)):
            usable = min(usable + bonus, hand + later)
            later += cost
        token = pending["token_tiles"] if pending["token"] == p else 0
        need += max(hand + sum(costs) - kept_before[p] - usable, token)
    owed_now = sum(e.get("bonus_tiles", 0) for es in events for e in es)
    owed_before = sum(e.get("bonus_tiles", 0) for r in sheet["rounds"] for es in r["events"] for e in es)
    paid_before = [0] * len(COLOURS)
    for k, r in enumerate(sheet["rounds"]):
        for c, n in enumerate(_paid([x for xs in r["pending"]["places"] for x in xs], wild(k + 1))):
            paid_before[c] += n
    paid_now = _paid([x for xs in pending["places"] for x in xs], wild(rnd))
    first_pass = SUPPLY + rnd * dealt + owed_before + owed_now <= ALL_TILES
    on_boards = [sum(star.count(colour) for board in sheet["boards"] for star in board) for colour in COLOURS]
    for c, colour in enumerate(COLOURS):
        name = COLOUR_WORDS[colour]
        if first_pass and paid_before[c] + paid_now[c] > PER_COLOUR:
            raise SheetError("%s: %d %s tiles paid up to round %d, but the game has %d, and none comes back from "
                             "the tower by then" % (name, paid_before[c] + paid_now[c], name, rnd, PER_COLOUR),
                             "pv_colour_tower", colour=name, n=paid_before[c] + paid_now[c], k=rnd,
                             total=PER_COLOUR)
        if not first_pass and paid_now[c] + on_boards[c] > PER_COLOUR + owed_now:
            raise SheetError("%s: %d %s tiles paid this round and %d on the boards before it, but the game has %d "
                             "(and %d bonus tiles this round that may come back from the tower)"
                             % (name, paid_now[c], name, on_boards[c], PER_COLOUR, owed_now), "pv_colour_round",
                             colour=name, n=paid_now[c], b=on_boards[c], total=PER_COLOUR, s=owed_now)
    if need > dealt:
        raise SheetError("this round's entries need at least %d tiles from the factories and the centre (the tiles "
                         "paid, kept and discarded, less those kept from the last round and the bonus tiles "
                         "received in time to pay), but a round of %d players deals %d" % (need, players, dealt),
                         "pv_round_deals", n=need, players=players, m=dealt)


def place(engine, sheet, player, star, space, colour, wilds):
    """A tile placed this round on ``star`` (O R B Y G P C) ``space`` (1-6) in ``colour`` with ``wilds`` wild
    tiles standing in; placing it again takes it back."""
    _check(sheet, player)
    if not (isinstance(star, str) and len(star) == 1 and star in STARS):
        raise SheetError("star: %r is not one of O R B Y G P C" % (star,))
    space = _int(space, 1, 6, "space")
    wilds = _int(wilds, 0, 5, "wild tiles")
    if star != "C":
        colour = {"O": "O", "R": "R", "B": "B", "Y": "Y", "G": "G", "P": "P"}[star]
    if not (isinstance(colour, str) and len(colour) == 1 and colour in COLOURS):
        raise SheetError("colour: choose one of P G O Y B R for the centre star")
    places = sheet["pending"]["places"][player]
    for x in places:
        if x["star"] == star and x["space"] == space:
            places.remove(x)
            return
    trial = _copy(sheet["pending"])
    trial["places"][player].append({"star": star, "space": space, "colour": colour, "wilds": wilds})
    evaluate(engine, sheet, trial)
    sheet["pending"] = trial


def set_token(engine, sheet, player, tiles):
    _check_open(sheet)
    if player is not None:  # (None: not entered yet)
        _check(sheet, player)
    trial = _copy(sheet["pending"])
    trial["token"] = player
    trial["token_tiles"] = _int(tiles, 1, 40, "tiles taken with the start token")
    dealt = 4 * (2 * len(sheet["names"]) + 1)  # a round's tiles: no take from the centre has more
    if trial["token_tiles"] > dealt:
        raise SheetError("the start token came with at most %d tiles: a %d-player round deals %d"
                         % (dealt, len(sheet["names"]), dealt), "token_max", n=dealt, players=len(sheet["names"]))
    evaluate(engine, sheet, trial)
    sheet["pending"] = trial


def set_pass(engine, sheet, player, kept, discarded):
    _check(sheet, player)
    trial = _copy(sheet["pending"])
    trial["kept"][player] = _int(kept, 0, 40, "tiles kept")
    if trial["kept"][player] > 4:  # the rule in its own words (the engine's names the pass it was given)
        name = name_of(sheet, player)
        raise SheetError("%s: a pass keeps at most 4 tiles" % name, "pass_keeps", name=name)
    trial["discarded"][player] = _int(discarded, 0, 200, "tiles discarded")
    evaluate(engine, sheet, trial)
    sheet["pending"] = trial


def finish_round(engine, sheet):
    _check_open(sheet)
    result = evaluate(engine, sheet)
    sheet["rounds"].append(result)
    sheet["boards"] = result["boards"]
    sheet["scores"] = result["after"]
    sheet["pending"] = _empty_round(len(sheet["names"]))
    if result["over"]:
        sheet["over"] = True
        sheet["final"] = {"end": result["end"], "scores": result["final"], "winners": result["winners"]}
    return result


def undo_round(sheet):
    if not sheet["rounds"]:
        raise SheetError("no round to take back")
    last = sheet["rounds"].pop()
    sheet["scores"] = last["before"]
    sheet["boards"] = [list(b) for b in last["boards"]]
    for p, places in enumerate(last["pending"]["places"]):
        board = [list(s) for s in sheet["boards"][p]]
        for x in places:
            board[STARS.index(x["star"])][x["space"] - 1] = "."
        sheet["boards"][p] = ["".join(s) for s in board]
    sheet["pending"] = last["pending"]
    sheet["over"], sheet["final"] = False, None


def _check(sheet, player):
    _check_open(sheet)
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < len(sheet["names"]):
        raise SheetError("player: %r is not a seat of this game" % (player,))


def _copy(p):
    return {"places": [[dict(x) for x in xs] for xs in p["places"]], "token": p["token"],
            "token_tiles": p["token_tiles"], "discarded": list(p["discarded"]), "kept": list(p["kept"])}
