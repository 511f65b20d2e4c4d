"""Records of games still being played (records.md section 1: the last round's scores, the final scores and the
winners are null): GameState.record() of an unfinished game, and a game saved mid-game by `play`, replay, audit,
explain, step through replay_states, draw as a picture and as an HTML replay (issue 23)."""

import json
import subprocess
import sys

import pytest

from azul_engine import bots, records, replay, svg
from azul_engine.__main__ import main

VARIANTS = ["classic", "grey", "summer-pavilion"]


def stopped(engine, variant, players, moves, chance="sampled"):
    """A greedy game stopped after ``moves`` moves (or at its end), and its record as a file would hold it."""
    state = engine.new_game(players=players, variant=variant, seed=11, chance=chance)
    bot = bots.make_bot("greedy", 1)
    for _ in range(moves):
        if state.is_over:
            break
        if state.is_chance_node:
            state.apply(state.chance_outcomes()[0][0])
            continue
        state.apply(bot.choose(state))
    return state, json.loads(state.record_json())


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("moves", [0, 1, 17, 40])
def test_an_unfinished_game_replays_and_audits(engine, variant, moves):
    state, record = stopped(engine, variant, 3, moves)
    assert not state.is_over and records.in_progress(record)
    assert records.audit(record, engine) == []
    again = records.replay(record, engine)
    assert (again.round, again.current_player, list(again.scores)) == (state.round, state.current_player,
                                                                        list(state.scores))
    assert sorted(again.legal_moves()) == sorted(state.legal_moves())
    played = sum(len(r["moves"]) for r in record["rounds"])
    assert len(list(records.replay_states(record, engine))) == played
    text = records.explain(record, engine)
    assert text.splitlines()[-1].startswith("The game is still being played: round %d" % state.round)
    page = replay.to_html(record, engine)
    assert "The game is still being played" in page and "Winner" not in page
    assert svg.board(again).startswith("<svg")


def test_between_rounds_in_explicit_chance_is_in_progress_too(engine):
    state = engine.new_game(players=2, variant="classic", seed=5, chance="explicit")
    state.apply(state.chance_outcomes()[0][0])
    bot = bots.make_bot("greedy", 1)
    while not state.is_chance_node or state.round == 1:
        state.apply(state.chance_outcomes()[0][0] if state.is_chance_node else bot.choose(state))
    record = json.loads(state.record_json())
    assert record["rounds"][-1]["scores"] is not None and records.in_progress(record)
    assert records.audit(record, engine) == []
    assert "before the tiles are drawn" in records.explain(record, engine)


def test_the_audit_still_checks_the_rounds_played(engine):
    _, record = stopped(engine, "classic", 2, 30)
    assert record["rounds"][0]["scores"] is not None
    record["rounds"][0]["scores"][1] += 1
    found = records.audit(record, engine)
    assert len(found) == 1 and found[0].round == 1 and found[0].field == "scores"


def test_null_scores_for_a_round_that_is_over_is_a_finding(engine):
    _, record = stopped(engine, "classic", 2, 30)
    done = record["rounds"][0]["scores"]
    record["rounds"] = record["rounds"][:1]
    record["rounds"][0]["scores"] = None
    found = records.audit(record, engine)
    assert [str(f) for f in found] == ["round 1: scores: null, but the round is over: the rules give %s" % done]


def test_null_final_scores_for_a_finished_game_is_a_finding(engine):
    state, record = stopped(engine, "grey", 2, 10_000)
    assert state.is_over
    final, winners = record["final_scores"], record["winners"]
    record["final_scores"] = record["winners"] = None
    found = records.audit(record, engine)
    assert [str(f) for f in found] == ["field final_scores: null (and winners), but the game is over: the "
                                       "rules give final scores %s, winners %s" % (final, winners)]


def test_only_the_last_round_may_be_unscored_and_the_message_says_null(engine):
    _, record = stopped(engine, "classic", 2, 30)
    record["rounds"][0]["scores"] = None
    found = records.audit(record, engine)
    assert [str(f) for f in found] == ["round 1: field scores: null is not 2 whole numbers"]
    _, record = stopped(engine, "classic", 2, 30)
    record["final_scores"] = [1, 2]  # not null: not a game in progress, so its last round needs scores
    found = records.audit(record, engine)
    assert [str(f) for f in found] == ["round %d: field scores: null is not 2 whole numbers" % len(record["rounds"])]


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
def test_a_game_saved_mid_game_by_play_audits_replays_and_draws(engine, variant, tmp_path, capsys):
    backend = "cpp" if engine.__name__.endswith("cppengine") else "python"
    path = tmp_path / "saved.jsonl"
    first = engine.new_game(players=2, variant=variant, seed=7).legal_moves()[0]
    done = subprocess.run([sys.executable, "-m", "azul_engine", "play", "--variant", variant, "--seed", "7",
                           "--bots", "greedy", "--backend", backend],
                          input="%s\nsave %s\nquit\n" % (first, path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record = json.loads(path.read_text())
    assert records.in_progress(record) and record["rounds"][0]["moves"][0] == first
    assert main(["audit", str(path), "--backend", backend]) == 0
    assert main(["replay", str(path), "-o", str(tmp_path / "saved.html"), "--backend", backend]) == 0
    assert main(["board", str(path), "-o", str(tmp_path / "saved.svg"), "--backend", backend]) == 0
    assert "still being played" in (tmp_path / "saved.html").read_text()
    assert (tmp_path / "saved.svg").read_text().startswith("<svg")
    capsys.readouterr()
