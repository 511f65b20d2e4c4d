"""What the web tests share: a finished game's table entries (from the engine's own score sheet), and a real
uvicorn server on a free loopback port in a thread."""

import random
import socket
import threading
import time

from azul_engine import bots


def table_rounds(state):
    """What players at a real table write down, round by round, for the finished game ``state``: each
    player's placed tiles (row, column, colour), floor tiles (the marker apart) and who took the marker; with the
    engine's own figures to compare (tile points, penalties, scores after the round).  None if a round's marker
    holder cannot be told from the score sheet (nobody took from the centre)."""
    sheet = state.score_sheet()
    record = state.record()
    out = []
    players = state.players
    for i, events in enumerate(sheet):
        tiles = [[] for _ in range(players)]
        points = [[] for _ in range(players)]
        runs = [[] for _ in range(players)]
        floors, penalties, marker = [0] * players, [0] * players, None
        for e in events:
            if e["event"] == "tile":
                tiles[e["player"]].append({"row": e["row"], "col": e["column"], "colour": e["colour"]})
                points[e["player"]].append(e["points"])
                runs[e["player"]].append((e["across"], e["down"]))
            elif e["event"] == "floor":
                p = e["player"]
                floors[p] = e["items"] - (1 if e["marker"] else 0)
                penalties[p] = e["penalty"]
                if e["marker"]:
                    marker = p
        if marker is None:
            full = [p for p in range(players) if floors[p] == 7]
            if not full:
                return None
            marker = full[0]  # kept aside on a full floor: 7 items either way
        out.append({"tiles": tiles, "points": points, "floors": floors, "marker": marker, "penalties": penalties,
                    "runs": runs,
                    "scores": record["rounds"][i]["scores"]})
    return out


def finished_game(engine, players, variant, seed, bot="greedy"):
    return bots.play(engine, players, variant, seed, bot)


def hungry_game(engine, players, variant, seed):
    """A finished game whose moves take one colour (blue; Summer Pavilion: red) nine times in ten when they can:
    as many tiles of a colour in play as a game can have, the bounds of the sheets' tile counts."""
    rng = random.Random(seed)
    state = engine.new_game(players=players, variant=variant, seed=seed)
    pavilion = variant == "summer-pavilion"
    while not state.is_over:
        moves = state.legal_moves()
        if pavilion:
            liked = [m for m in moves if "R" in m] or [m for m in moves if not m.startswith("-")]
        else:
            liked = [m for m in moves if "B" in m[:3] and not m.endswith("F")]
        state.apply(rng.choice(liked) if liked and rng.random() < 0.9 else rng.choice(moves))
    return state


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """uvicorn serving ``app`` on 127.0.0.1 in a thread; ``url``, ``app``; ``stop()``."""

    def __init__(self, app):
        import uvicorn

        self.app = app
        self.port = free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="error", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self):
        self.server.should_exit = True
        self.thread.join(10)
