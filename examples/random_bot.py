#!/usr/bin/env python3
"""A small external Azul bot speaking azul-bot-protocol version 1 (docs/bot-protocol.md), in plain Python:
no azul_engine import, only the standard library.  Use it as

    python -m azul_engine tournament --bots "greedy,cmd:python3 examples/random_bot.py" --games 10

It plays a random legal move, preferring moves that keep tiles off the floor (classic and grey: a draft whose
destination is not F) and moves that are not a pass (Summer Pavilion: not "-..."), with its own generator seeded
by the host's "newgame" line.  The options make it misbehave, to try out how a host treats a bad bot:

    --crash-after N     exit with status 3 (and a line on standard error) instead of its move N+1
    --illegal-after N   answer a move that is not legal instead of its move N+1
    --sleep SECONDS     wait this long before every move
    --protocol V        claim protocol version V in the handshake
    --name NAME         the name it gives in the handshake
"""

import argparse
import random
import sys
import time


def main():
    parser = argparse.ArgumentParser(description="a random Azul bot (azul-bot-protocol 1)")
    parser.add_argument("--crash-after", type=int, default=None)
    parser.add_argument("--illegal-after", type=int, default=None)
    parser.add_argument("--sleep", type=float, default=0.0)
    parser.add_argument("--protocol", default="1")
    parser.add_argument("--name", default="random_bot.py 1.0")
    args = parser.parse_args()

    rng = random.Random(0)
    legal, position, played = [], "", 0

    def send(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        command = words[0]
        if command == "azul-bot-protocol":
            send("id name " + args.name)
            send("id author the azul-engine examples")
            send("ready " + args.protocol)
        elif command == "newgame":  # newgame VARIANT PLAYERS SEAT SEED
            rng = random.Random(int(words[4]))
            played = 0
        elif command == "position":
            position = line[len("position "):].strip()  # the state's text: this bot does not need it
        elif command == "moves":
            legal = words[1:]
        elif command == "go":
            if args.sleep:
                time.sleep(args.sleep)
            if args.crash_after is not None and played >= args.crash_after:
                print("random_bot.py: crashing on purpose (--crash-after)", file=sys.stderr)
                sys.exit(3)
            if args.illegal_after is not None and played >= args.illegal_after:
                send("move Z9Z")
            else:
                useful = [m for m in legal if not m.endswith("F") and not m.startswith("-")]
                send("info %d legal moves, %d useful" % (len(legal), len(useful)))
                send("move " + rng.choice(useful or legal))
            played += 1
        elif command == "quit":
            break
        # any other line (gameover, or a command of a later protocol version) is ignored


if __name__ == "__main__":
    main()
