"""records.replay_states(record): the state after every recorded move, on both engines."""

import random

import pytest

from azul_engine import records


def random_game(engine, players, variant, seed, limit=None):
    g = engine.new_game(players, variant=variant, seed=seed)
    rng = random.Random(seed)
    states = []
    while not g.is_over and (limit is None or len(states) < limit):
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])
        states.append(g.clone())
    return g, states


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
@pytest.mark.parametrize("players", [2, 3])
def test_one_state_per_recorded_move_the_last_the_replay(engine, players, variant):
    g, played = random_game(engine, players, variant, seed=players + 7)
    record = g.record()
    states = list(records.replay_states(record, engine))
    moves = [m for rnd in record["rounds"] for m in rnd["moves"]]
    assert len(states) == len(moves) > 20
    assert states[-1] == records.replay(record, engine)
    assert states[-1].is_over and states[-1].scores == g.scores
    # each state has made exactly the record's moves so far (its own record is the record's prefix)
    done = 0
    for rnd_index, rnd in enumerate(record["rounds"]):
        for j in range(len(rnd["moves"])):
            s = states[done]
            got = s.record()["rounds"]
            assert len(got) == rnd_index + 1
            assert got[-1]["moves"] == rnd["moves"][:j + 1]
            assert [r["factories"] for r in got] == [r["factories"] for r in record["rounds"][:rnd_index + 1]]
            done += 1
    # the positions are those of the game as played (the states are independent copies)
    if variant != "summer-pavilion":  # a Summer Pavilion record also lists the refills as moves
        assert len(played) == len(states)
        compared = 0
        for a, b in zip(played, states):
            if b.is_chance_node:  # a round's end: the replay waits for the next deal, the game drew it
                continue
            assert a.to_text().split(" rng=")[1].split(" ", 1)[1] == b.to_text().split(" rng=")[1].split(" ", 1)[1]
            compared += 1
        assert compared > 20
    assert len({id(s) for s in states}) == len(states)


def test_a_bad_record_raises_at_the_call_before_any_state(engine):
    g, _ = random_game(engine, 2, "classic", seed=3)
    record = g.record()
    record["rounds"][0]["moves"][2] = "9Z9"
    with pytest.raises(records.RecordError):
        records.replay_states(record, engine)


def test_an_unfinished_game_steps_to_where_replay_stops(engine):
    g, _ = random_game(engine, 2, "classic", seed=4, limit=5)
    record = g.record()  # a game in progress (records.md section 1): its states, as far as it has gone
    states = list(records.replay_states(record, engine))
    assert len(states) == 5 and states[-1].to_text() == records.replay(record, engine).to_text()


def test_a_record_cut_short_is_refused_as_replay_refuses_it(engine):
    g, _ = random_game(engine, 2, "classic", seed=4)
    record = g.record()
    record["rounds"][-1]["moves"].pop()  # a finished game's record that lost its last move
    with pytest.raises(records.RecordError) as replayed:
        records.replay(record, engine)
    with pytest.raises(records.RecordError) as states:
        records.replay_states(record, engine)
    assert str(states.value) == str(replayed.value)
