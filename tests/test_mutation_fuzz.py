"""Mutation fuzz of state text and record lines over both engines (deterministic seed).

Base inputs are real: ``to_text()`` and ``to_text(history=True)`` of positions from every variant and player
count (start, middle, end), and ``record_json()`` lines of finished games. Each is mutated: characters flipped,
inserted, deleted or doubled, fields duplicated, swapped or dropped, numbers made huge or negative, non-ASCII
characters, NUL and lone surrogates put in, the text cut short; record lines also structurally (a value replaced
by one of another type, a key deleted or added, deep nesting). Then:

- state text: ``from_text`` in both engines gives the same outcome (the same state, by its text, or the same
  exception type and message); an accepted text round-trips (``from_text(s.to_text(history=True)) == s``) and
  the state plays on alike in both engines;
- record lines: ``records.iter_file`` reads the line without raising, and ``records.audit`` in both engines
  returns findings (never raises), the same ones; ``records.replay`` gives the same outcome in both.

Symptoms of the defects listed in fuzz_support.KNOWN_DEFECTS are tolerated (and counted) until they are fixed.
The default run is a few thousand inputs (about 15 s here); ``AZUL_FUZZ_MUTATIONS=100000`` (inputs of each kind)
and ``AZUL_FUZZ_SEED=n`` make a longer or different run.
"""

import json
import os
import random

import pytest

from azul_engine import records
from fuzz_support import KNOWN_DEFECTS, compare, load_both, run, show
from helpers import Picker

# The whole module is long (pytest -m 'not slow' leaves it out; CI runs it).
pytestmark = pytest.mark.slow

PY, CPP = load_both()
SEED = int(os.environ.get("AZUL_FUZZ_SEED", "20261201"))
STATE_INPUTS = int(os.environ.get("AZUL_FUZZ_MUTATIONS", "2500"))
RECORD_INPUTS = int(os.environ.get("AZUL_FUZZ_MUTATIONS", "0") or 0) or 1000

ODD = ["\x00", "\x01", "\x7f", "é", "ß", "\u00a0", "\u2603", "\uff11", "\U0001f600", "\ud800", "\udc00", "\ufeff",
       "٣", "\n", "\t", " "]
PUNCT = list("=:,/|-.;+~ ") + ["\\", '"', "{", "}", "[", "]"]
HUGE = ["18446744073709551616", "18446744073709551615", "9223372036854775808", "4294967296", "2147483648",
        "99999999999999999999999999999999", "-1", "-0", "0x10", "1e9", "00", "+5", " 5", "1_000"]


def positions():
    """(engine name, state) pairs: positions of every variant and player count, some in explicit chance mode."""
    out = []
    for variant in ("classic", "grey", "summer-pavilion"):
        for players in (2, 3, 4):
            for chance in ("sampled", "explicit"):
                seed = 100 * players + len(variant) + (chance == "explicit")
                g = PY.new_game(players, variant, seed, chance)
                pick = Picker(seed)
                steps = 0
                while True:
                    if steps in (0, 1, 7, 30, 61, 95) or g.is_over:
                        out.append(g.clone())
                    if g.is_over:
                        break
                    g.apply(pick.likely_move(g.legal_moves()))
                    steps += 1
    return out


def finished_records():
    lines = []
    for variant in ("classic", "grey", "summer-pavilion"):
        for players in (2, 3, 4):
            g = PY.new_game(players, variant, seed=players * 7 + len(variant))
            pick = Picker(players)
            while not g.is_over:
                g.apply(pick.likely_move(g.legal_moves()))
            lines.append(g.record_json())
    return lines


def char_mutation(rng, text):
    kind = rng.randrange(11)
    at = rng.randrange(len(text) + 1)
    if kind == 0:  # flip one character
        return text[:at] + rng.choice(ODD + PUNCT + list("0123456789BYRKWPGOC")) + text[at + 1:]
    if kind == 1:  # insert
        return text[:at] + rng.choice(ODD + PUNCT) + text[at:]
    if kind == 2:  # delete one or a run
        return text[:at] + text[at + rng.choice([1, 1, 2, 5, 40]):]
    if kind == 3:  # double a character
        return text[:at] + text[at:at + 1] + text[at:]
    if kind == 4:  # a number made huge or odd
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if digits:
            i = rng.choice(digits)
            j = i
            while j < len(text) and text[j].isdigit():
                j += 1
            return text[:i] + rng.choice(HUGE) + text[j:]
        return text
    if kind == 5:  # cut short
        return text[:at]
    if kind == 6:  # case flip
        return text[:at] + text[at:at + 1].swapcase() + text[at + 1:]
    if kind == 7:  # a run of one character
        return text[:at] + rng.choice(ODD + PUNCT + ["B", "9"]) * rng.choice([2, 50, 5000]) + text[at:]
    if kind == 8:  # a byte-level flip: one bit of one character's code (kept a valid str)
        if not text:
            return text
        i = rng.randrange(len(text))
        return text[:i] + chr(ord(text[i]) ^ (1 << rng.randrange(8))) + text[i + 1:]
    if kind == 9:  # a lone surrogate or non-ASCII letter inside a field
        return text[:at] + rng.choice(["\ud800", "\udfff", "é", "\u2603"]) + text[at:]
    return text[:at] + text[at:at + 3] + text[at:]  # repeat a short piece


def token_mutation(rng, text, sep=" "):
    tokens = text.split(sep)
    kind = rng.randrange(5)
    i = rng.randrange(len(tokens))
    if kind == 0:  # duplicate a field
        tokens.insert(rng.randrange(len(tokens) + 1), tokens[i])
    elif kind == 1 and len(tokens) > 1:  # drop a field
        del tokens[i]
    elif kind == 2:  # swap two fields
        j = rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif kind == 3:  # a field's value replaced
        key = tokens[i].partition("=")[0]
        tokens[i] = key + "=" + rng.choice(HUGE + ["", "-", "é", "\ud800", ",,,", "x" * 1000, "1/2/3"])
    else:  # an unknown or round field added
        tokens.append(rng.choice(["r1=BBBB||", "r9=", "history=-:0:1", "zz=1", "=", "p9=0:-/-/-/-/-:-:-", "é=1"]))
    return sep.join(tokens)


def mutate_text(rng, text):
    for _ in range(rng.choice([1, 1, 1, 2, 3, 5])):
        text = token_mutation(rng, text) if rng.randrange(3) == 0 else char_mutation(rng, text)
    return text


ODD_VALUES = [None, True, 0, -1, 2 ** 64, 10 ** 30, 1.5, float("inf"), "", "é", "\ud800", "x\x00y", [], [[]], {},
              {"a": 1}, "BBBB", ["BBBB"], [1, 2], "1B1", ["1B1", "\ud800"], "~0"]


def paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from paths(v, prefix + (i,))


def mutate_record(rng, line):
    kind = rng.randrange(4)
    if kind == 0:
        return mutate_text(rng, line)
    if kind == 1 and rng.randrange(10) == 0:  # deep nesting (json's own recursion limit)
        depth = rng.choice([50, 1500, 100_000])
        return line[:-1] + ', "deep": ' + "[" * depth + "]" * depth + "}"
    record = json.loads(line)
    for _ in range(rng.choice([1, 1, 2, 3])):
        path = rng.choice(list(paths(record))[1:])
        parent = record
        for step in path[:-1]:
            parent = parent[step]
        key = path[-1]
        choice = rng.randrange(5)
        if choice == 0 and isinstance(parent, dict):
            del parent[key]
        elif choice == 1 and isinstance(parent, list):
            parent.insert(key, parent[key])
        elif choice == 2 and isinstance(parent[key], str) and parent[key]:
            s = parent[key]
            i = rng.randrange(len(s))
            parent[key] = s[:i] + rng.choice(ODD + list("BYRKWPGO~-+C0123456789")) + s[i + 1:]
        elif choice == 3 and isinstance(parent[key], int) and not isinstance(parent[key], bool):
            parent[key] = rng.choice([parent[key] + 1, parent[key] - 1, -parent[key], parent[key] + 2 ** 64])
        else:
            parent[key] = rng.choice(ODD_VALUES)
    return json.dumps(record, ensure_ascii=rng.randrange(2) == 0)


def check_state_text(text, tolerated):
    a, b = run(lambda: PY.from_text(text)), run(lambda: CPP.from_text(text))
    defect = compare("from_text", (text,), a, b)
    if defect:
        tolerated[defect] = tolerated.get(defect, 0) + 1
        return
    if a[0] == "raise":
        assert a[1].__name__ in ("StateFormatError", "TypeError"), (text, show(a))
        return
    sa, sb = PY.from_text(text), CPP.from_text(text)
    for s, engine in ((sa, PY), (sb, CPP)):
        full = s.to_text(history=True)
        again = engine.from_text(full)
        assert again == s and again.to_text(history=True) == full, text
    for _ in range(3):  # an accepted state plays on alike
        actions = sa.legal_actions()
        assert actions == sb.legal_actions(), text
        if not actions:
            break
        move = actions[len(actions) // 2]
        sa.apply(move)
        sb.apply(move)
        assert sa.to_text(history=True) == sb.to_text(history=True), text


def check_record_line(line, path, tolerated):
    path.write_text(line + "\n", encoding="utf-8", errors="surrogatepass")
    try:
        items = list(records.iter_file(path))
    except RecursionError:
        raise AssertionError("records.iter_file raised RecursionError on %r..." % line[:200]) from None
    for number, item in items:
        if isinstance(item, records.RecordError):
            continue
        a = run(lambda: [str(f) for f in records.audit(item, PY, line=number)])
        b = run(lambda: [str(f) for f in records.audit(item, CPP, line=number)])
        defect = compare("records.audit", (item,), a, b)
        if defect:
            tolerated[defect] = tolerated.get(defect, 0) + 1
            continue
        assert a[0] == "ok", "records.audit raised %s on %r" % (show(a), line[:500])
        ra, rb = run(lambda: records.replay(item, PY)), run(lambda: records.replay(item, CPP))
        defect = compare("records.replay", (item,), ra, rb)
        if defect:
            tolerated[defect] = tolerated.get(defect, 0) + 1
            continue
        if ra[0] == "raise":
            assert ra[1] is records.RecordError, "records.replay raised %s on %r" % (show(ra), line[:500])
        elif a[1] == []:
            assert ra[1][0] == "state"


@pytest.fixture(scope="module")
def state_texts():
    texts = []
    for g in positions():
        texts.append(g.to_text())
        texts.append(g.to_text(history=True))
    return texts


def test_state_text_mutations(state_texts):
    rng = random.Random(SEED)
    tolerated = {}
    for text in state_texts:  # the bases themselves: accepted alike
        check_state_text(text, tolerated)
    for _ in range(STATE_INPUTS):
        check_state_text(mutate_text(rng, rng.choice(state_texts)), tolerated)
    print("tolerated known defects:", tolerated)
    assert set(tolerated) <= set(KNOWN_DEFECTS)


def test_record_line_mutations(tmp_path):
    rng = random.Random(SEED + 1)
    lines = finished_records()
    tolerated = {}
    path = tmp_path / "fuzz.jsonl"
    for line in lines:
        check_record_line(line, path, tolerated)
        assert records.audit(json.loads(line), PY) == []
    for _ in range(RECORD_INPUTS):
        check_record_line(mutate_record(rng, rng.choice(lines)), path, tolerated)
    print("tolerated known defects:", tolerated)
    assert set(tolerated) <= set(KNOWN_DEFECTS)


def test_mutations_are_deterministic():
    """The same seed gives the same inputs (a failure is reproducible from AZUL_FUZZ_SEED alone)."""
    lines = finished_records()[:1]
    one, two = random.Random(5), random.Random(5)
    first = [mutate_record(one, lines[0]) for _ in range(20)]
    assert first == [mutate_record(two, lines[0]) for _ in range(20)]
    assert len(set(first)) > 1
