"""Networks for the guided search (docs/network.md): writing the weights file, exporting a PyTorch module to it,
the PyTorch module of that shape, an evaluator that runs a PyTorch module, and the networks that ship with the
package.  Reading a file is the engines' ``load_network``; evaluating it inside the search is the engines'.

>>> import os, tempfile, azul_engine
>>> path = os.path.join(tempfile.mkdtemp(), "tiny.npz")
>>> rng = np.random.default_rng(0)
>>> layer = lambda n_in, n_out: (rng.normal(size=(n_out, n_in)).astype("float32"), np.zeros(n_out, "float32"))
>>> save_network(path, "classic", 2, [layer(384, 32)], layer(32, 314), layer(32, 2), meta={"note": "random"})
>>> net = azul_engine.load_network(path)
>>> net.layers, net.meta["note"]
((384, 32), 'random')
>>> save_network(path, "classic", 2, [layer(384, 32)], layer(32, 314), layer(32, 2))
Traceback (most recent call last):
    ...
azul_engine.outputs.OutputExists: [Errno 17] it already exists (force=True replaces it): '...'
"""

from __future__ import annotations

import io
import os
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import json

import numpy as np

from ._backends import ENGINE
from .outputs import OutputExists

__all__ = ["FORMAT", "save_network", "export", "torch_network", "torch_evaluator", "shipped", "shipped_path",
           "SHIPPED"]

FORMAT = "azul-engine-mlp/1"  # the weights file's format entry (docs/network.md), as the engines read it

_Path = Union[str, "os.PathLike[str]"]
_Pair = Tuple[Any, Any]

# The networks that ship with the package (python/azul_engine/data/networks/): (variant, players) -> file name
# (benchmarks/ship_network.py makes one from a training run).
SHIPPED: Dict[Tuple[str, int], str] = {("classic", 2): "classic-2.npz",
                                        ("summer-pavilion", 2): "summer-pavilion-2.npz"}


def shipped_path(variant: str, players: int) -> Optional[str]:
    """The path of the network that ships for ``variant`` and ``players``, or None when none does."""
    name = SHIPPED.get((variant, players))
    if name is None:
        return None
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "networks", name)
    return path if os.path.exists(path) else None


def shipped() -> Dict[Tuple[str, int], str]:
    """Every network that ships with this install: ``{(variant, players): path}``."""
    found = {}
    for key in SHIPPED:
        path = shipped_path(*key)
        if path:
            found[key] = path
    return found


def save_network(path: _Path, variant: str, players: int, trunk: Sequence[_Pair], policy: _Pair, value: _Pair, *,
                 meta: Optional[Mapping[str, Any]] = None, dtype: str = "float32", force: bool = False) -> None:
    """Write a weights file (docs/network.md, "The weights file"): ``trunk`` a list of ``(weight, bias)`` of the
    dense layers (weights ``(out, in)``, as PyTorch's ``nn.Linear``; ReLU after each), ``policy`` and ``value``
    the heads' pairs, ``meta`` a JSON-able dict (how the network was trained, how strong it is), ``dtype``
    ``"float32"`` or ``"float16"`` (half the file; the engines compute in float32 either way).  The parts are
    checked as the engines check a file.  An existing file is replaced only with ``force=True``
    (``OutputExists`` otherwise), and then only once the new file is whole."""
    if dtype not in ("float32", "float16"):
        raise ValueError("save_network: dtype must be 'float32' or 'float16', not %r" % (dtype,))
    meta = dict(meta or {})
    try:
        meta_text = json.dumps(meta, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as e:
        raise ValueError("save_network: meta must be JSON: %s" % e) from None
    # The parts as the file will hold them (float16 turns a value past 65504 into an infinity), checked as the
    # engines check a file.
    stored = [(np.asarray(w, dtype=np.float32).astype(dtype), np.asarray(b, dtype=np.float32).astype(dtype))
              for w, b in list(trunk) + [policy, value]]
    ENGINE.Network.from_arrays(variant, players, stored[:-2], stored[-2], stored[-1], meta)
    arrays: Dict[str, np.ndarray] = {"format": np.array(FORMAT), "variant": np.array(variant),
                                     "players": np.array(players, dtype=np.int64), "meta": np.array(meta_text)}
    names = ["trunk.%d" % i for i in range(len(stored) - 2)] + ["policy", "value"]
    for name, (w, b) in zip(names, stored):
        arrays[name + ".weight"], arrays[name + ".bias"] = w, b
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)  # type: ignore[arg-type]
    _write_new(path, buffer.getvalue(), force)


def _write_new(path: _Path, data: bytes, force: bool) -> None:
    """``data`` to ``path`` through a temporary file beside it, renamed over it at the end."""
    path = os.fspath(path)
    if os.path.isdir(path):
        raise IsADirectoryError(21, "a directory, not a weights file", path)
    if os.path.exists(path) and not force:
        raise OutputExists(17, "it already exists (force=True replaces it)", path)
    directory = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(directory, ".%s.%d.partial" % (os.path.basename(path), os.getpid()))
    try:
        with open(temporary, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


def _linear_pair(module: Any, name: str) -> _Pair:
    import torch

    if not isinstance(module, torch.nn.Linear):
        raise TypeError("export: %s must be a torch.nn.Linear, not %s" % (name, type(module).__name__))
    bias = module.bias if module.bias is not None else torch.zeros(module.out_features)
    return (module.weight.detach().cpu().float().numpy(), bias.detach().cpu().float().numpy())


def export(module: Any, path: _Path, *, variant: str, players: int, meta: Optional[Mapping[str, Any]] = None,
           dtype: str = "float32", force: bool = False) -> None:
    """Export a PyTorch module to a weights file: the module has ``trunk`` (a ``torch.nn.Sequential`` of
    ``Linear`` layers, each followed by ``ReLU``), ``policy`` and ``value`` (``Linear`` heads; the value head's
    tanh is the engines'), as ``torch_network`` makes it.  TypeError names a part of another kind."""
    import torch

    for part in ("trunk", "policy", "value"):
        if not hasattr(module, part):
            raise TypeError("export: the module has no %r (it needs trunk, policy and value: see torch_network)"
                            % part)
    trunk: List[_Pair] = []
    layers = list(module.trunk)
    i = 0
    while i < len(layers):
        trunk.append(_linear_pair(layers[i], "trunk.%d" % i))
        if i + 1 >= len(layers) or not isinstance(layers[i + 1], torch.nn.ReLU):
            after = type(layers[i + 1]).__name__ if i + 1 < len(layers) else "nothing"
            raise TypeError("export: trunk.%d is followed by %s; the built-in network has ReLU after each dense "
                            "layer" % (i, after))
        i += 2
    save_network(path, variant, players, trunk, _linear_pair(module.policy, "policy"),
                 _linear_pair(module.value, "value"), meta=meta, dtype=dtype, force=force)


def torch_network(variant: str = "classic", players: int = 2, hidden: Sequence[int] = (256, 256)) -> Any:
    """A PyTorch module of the built-in network's shape: ``trunk`` (dense layers of ``hidden`` units with ReLU),
    ``policy`` (a logit an action) and ``value`` (a value a seat, from the observer's); ``forward(observations)``
    gives ``(logits, tanh(values))`` as the engines' network does.  Export it with ``export``."""
    import torch

    from . import _backends

    info = _backends.ENGINE.game_info(variant, players)
    size, actions = info.observation_shape[0], info.num_actions

    class AzulNet(torch.nn.Module):  # type: ignore[misc,name-defined]
        def __init__(self) -> None:
            super().__init__()
            layers: List[Any] = []
            inputs = size
            for width in hidden:
                layers += [torch.nn.Linear(inputs, width), torch.nn.ReLU()]
                inputs = width
            self.trunk = torch.nn.Sequential(*layers)
            self.policy = torch.nn.Linear(inputs, actions)
            self.value = torch.nn.Linear(inputs, players)

        def forward(self, observations: Any) -> Tuple[Any, Any]:
            h = self.trunk(observations)
            return self.policy(h), torch.tanh(self.value(h))

    return AzulNet()


def torch_evaluator(module: Any, device: str = "cpu") -> Callable[[np.ndarray, np.ndarray], Tuple[Any, Any]]:
    """An evaluator for ``search(..., evaluator=...)`` that runs a PyTorch module (``forward(observations)`` ->
    ``(logits, values)``) on ``device`` without gradients, giving numpy arrays back."""
    import torch

    def evaluate(observations: np.ndarray, masks: np.ndarray) -> Tuple[Any, Any]:
        with torch.inference_mode():
            logits, values = module(torch.from_numpy(observations).to(device))
        return logits.float().cpu().numpy(), values.float().cpu().numpy()

    return evaluate
