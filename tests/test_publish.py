"""Issue 35's smaller points, in both engines where they are engine calls: VectorGame's repr, from_text's variant,
the package's dir(), the default ports, and how seats are numbered for people."""

import pickle
import subprocess
import sys

import pytest

import azul_engine


@pytest.mark.parametrize("args,kwargs,text", [
    ((4,), {}, "VectorGame(4, players=2, variant='classic', seed=0, auto_reset=False)"),
    ((3, 4, "summer-pavilion", 2 ** 64 - 1), {"auto_reset": "next_step"},
     "VectorGame(3, players=4, variant='summer-pavilion', seed=18446744073709551615, auto_reset='next_step')"),
    ((1,), {"variant": "grey", "players": 3, "auto_reset": True},
     "VectorGame(1, players=3, variant='grey', seed=0, auto_reset=True)"),
])
def test_vector_game_repr_is_its_call(engine, args, kwargs, text):
    """repr(VectorGame(...)) is the call that makes it (the same text in both engines), not <... object at 0x...>;
    stepping does not change it, and eval of it makes an equal vector."""
    vec = engine.VectorGame(*args, **kwargs)
    assert repr(vec) == text
    vec.step(vec.legal_actions[:, 0])
    assert repr(vec) == text
    again = eval(text, {"VectorGame": engine.VectorGame})
    assert repr(again) == text and again.n == vec.n and again.variant == vec.variant
    assert repr(pickle.loads(pickle.dumps(vec))) == text


@pytest.mark.parametrize("variant", ["classic", "grey", "summer-pavilion"])
def test_from_text_with_the_variant_it_must_be(engine, variant):
    state = engine.new_game(2, variant, seed=3)
    text = state.to_text()
    assert engine.from_text(text, variant=variant) == state
    assert engine.from_text(text) == state
    for other in set(engine.VARIANTS) - {variant}:
        with pytest.raises(engine.StateFormatError) as error:
            engine.from_text(text, variant=other)
        assert str(error.value) == "field variant: %r, expected %r" % (variant, other)


def test_from_text_refuses_an_unknown_variant_before_reading(engine):
    """The variant is checked first, with new_game's words, whatever the text holds."""
    for bad in ("classical", 3):
        with pytest.raises(ValueError) as error:
            engine.from_text("not a state", variant=bad)
        assert str(error.value) == "unknown variant %r (variants: classic, grey, summer-pavilion)" % (bad,)
        assert not isinstance(error.value, engine.StateFormatError)
    with pytest.raises(TypeError):
        engine.from_text(engine.new_game(2, seed=1).to_text(), "classic")  # keyword-only


def test_dir_lists_the_api_and_the_tools_not_the_imports():
    """dir(azul_engine) is what a user may use: the API, the tools and the dunders; importlib (imported by the
    package for its lazy tools) is not listed, and neither is any other private import."""
    names = dir(azul_engine)
    assert set(azul_engine.__all__) <= set(names)
    assert {"records", "bots", "svg", "__version__"} <= set(names)
    assert "importlib" not in names and "_backends" not in names
    assert all(not n.startswith("_") or n.startswith("__") for n in names), names
    assert names == sorted(names)


def test_the_package_does_not_hold_importlib():
    code = "import azul_engine as az; print(hasattr(az, 'importlib'), 'importlib' in dir(az))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_the_web_tests_client_gives_no_deprecation_warning():
    """The webtest extra brings httpx2 where Starlette's test client wants it (Python 3.11 and later): the client
    of the web app's tests starts and answers without a warning (Starlette's StarletteDeprecationWarning is a
    UserWarning: every warning is an error here)."""
    import importlib.util
    import os

    for module in ("starlette", "httpx"):
        pytest.importorskip(module)
    if sys.version_info >= (3, 11) and importlib.util.find_spec("httpx2") is None:
        if os.environ.get("CI", "").strip().lower() not in ("", "0", "false"):
            pytest.fail("the webtest extra installs httpx2 on Python 3.11 and later")
        pytest.skip("httpx2 is not installed (the webtest extra brings it)")
    code = ("from starlette.testclient import TestClient\n"
            "from azul_engine.web import app\n"
            "print(TestClient(app.create_app()).get('/').status_code)\n")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "200"
