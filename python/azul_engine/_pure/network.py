"""The built-in network, pure-Python engine: an MLP (dense layers with ReLU, a policy head and a value head) read
from the documented ``.npz`` weights file (docs/network.md, "The weights file") and evaluated with numpy.

C++ twin: native/src/common/network.cpp (native/include/azul/common/network.h).  Both engines compute the same
float32 bits (docs/network.md, "The forward pass"): every output is its bias, then each input's product added in
input order, in float32, without fused multiply-add; the value head's tanh is the C library's, in double.  This
module also holds what both engines share at the Python boundary: ``read_network`` (the file read and checked, so
that both refuse a bad file with the same words) and ``check_network_arrays``.
"""

import json
import math
import os

FORMAT = "azul-engine-mlp/1"
VARIANTS = ("classic", "grey", "summer-pavilion")
MAX_WIDTH = 1 << 16  # units a layer, at most
MAX_LAYERS = 64


def _shape_text(shape):
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _game_facts(variant, players):
    """(observation size, number of actions) of a variant and player count."""
    from .classic.observation import observation_shape
    from .classic.types import NUM_ACTIONS
    from .pavilion.tables import SP_NUM_ACTIONS

    size = observation_shape(players, variant)[0]
    return size, SP_NUM_ACTIONS if variant == "summer-pavilion" else NUM_ACTIONS


def check_network_arrays(variant, players, trunk, policy, value, meta=None, where="network"):
    """The parts of a network checked and made float32 C-contiguous numpy arrays: returns ``(variant, players,
    trunk, policy, value, meta)`` with ``trunk`` a list of ``(weight, bias)`` and ``policy``, ``value`` pairs, each
    weight ``(out, in)`` as PyTorch's ``nn.Linear`` keeps it.  ``where`` starts every error's text (the file's
    name when read from one).  ValueError or TypeError naming the part and what is wrong."""
    import numpy as np

    if not isinstance(variant, str) or variant not in VARIANTS:
        raise ValueError("%s: variant must be one of %s, not %r" % (where, ", ".join(VARIANTS), variant))
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 2 <= players <= 4:
        raise ValueError("%s: players must be 2, 3 or 4, not %r" % (where, players))
    players = int(players)
    size, actions = _game_facts(variant, players)
    if not isinstance(trunk, (list, tuple)) or not 1 <= len(trunk) <= MAX_LAYERS:
        raise ValueError("%s: the trunk must be 1 to %d dense layers, not %r" % (where, MAX_LAYERS,
                                                                              type(trunk).__name__
                                                                              if not isinstance(trunk, (list, tuple))
                                                                              else "%d" % len(trunk)))

    def layer(name, pair, inputs, outputs):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise ValueError("%s: %s must be a pair (weight, bias)" % (where, name))
        out = []
        for part, array in zip(("weight", "bias"), pair):
            try:
                a = np.asarray(array)
            except Exception as e:  # an object numpy cannot read
                raise TypeError("%s: %s.%s is not an array: %s" % (where, name, part, e)) from None
            if a.dtype.kind != "f" or a.dtype.itemsize not in (2, 4, 8):
                raise TypeError("%s: %s.%s must hold floats (float16 or float32), not %s"
                                % (where, name, part, a.dtype))
            out.append(np.ascontiguousarray(a, dtype=np.float32))
        w, b = out
        if w.ndim != 2 or (outputs is not None and w.shape[0] != outputs) or (inputs is not None
                                                                              and w.shape[1] != inputs):
            want = "(%s, %s)" % ("units" if outputs is None else outputs, inputs)
            raise ValueError("%s: %s.weight has shape %s, expected %s" % (where, name, _shape_text(w.shape), want))
        if not 1 <= w.shape[0] <= MAX_WIDTH:
            raise ValueError("%s: %s has %d units (1 to %d)" % (where, name, w.shape[0], MAX_WIDTH))
        if b.shape != (w.shape[0],):
            raise ValueError("%s: %s.bias has shape %s, expected (%d,)" % (where, name, _shape_text(b.shape),
                                                                           w.shape[0]))
        if not (np.isfinite(w).all() and np.isfinite(b).all()):
            raise ValueError("%s: %s holds a value that is not finite" % (where, name))
        return w, b

    layers = []
    inputs = size
    for i, pair in enumerate(trunk):
        w, b = layer("trunk.%d" % i, pair, inputs, None)
        layers.append((w, b))
        inputs = w.shape[0]
    policy = layer("policy", policy, inputs, actions)
    value = layer("value", value, inputs, players)
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise TypeError("%s: meta must be a dict, not %s" % (where, type(meta).__name__))
    return variant, players, layers, policy, value, meta


def read_network(path):
    """The weights file at ``path`` (docs/network.md), read and checked: ``(variant, players, trunk, policy, value,
    meta)`` as ``check_network_arrays`` returns them.  Errors name the file: FileNotFoundError (no such file),
    ValueError (not a network of this format, a part missing or of the wrong shape or type)."""
    import zipfile

    import numpy as np

    where = "load_network: %s" % (os.fspath(path),)
    if not os.path.exists(path):
        raise FileNotFoundError(2, "load_network: no such file", os.fspath(path))
    if os.path.isdir(path):
        raise IsADirectoryError(21, "load_network: a directory, not a weights file", os.fspath(path))
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        # numpy's ValueError for other files (text, a pickle) advises loading it with pickle: never here.
        detail = "not an .npz archive of arrays" if isinstance(e, ValueError) else str(e)
        raise ValueError("%s: not a weights file (.npz): %s" % (where, detail)) from None
    if not isinstance(data, np.lib.npyio.NpzFile):
        raise ValueError("%s: not a weights file (.npz): one array, not an archive" % where)
    with data:
        try:
            names = set(data.files)

            def text(name):
                if name not in names:
                    raise ValueError("%s: not an azul-engine network: no %r entry" % (where, name))
                a = data[name]
                if a.shape != () or a.dtype.kind not in "US":
                    raise ValueError("%s: %r must be a string" % (where, name))
                return str(a)

            fmt = text("format")
            if fmt != FORMAT:
                raise ValueError("%s: format %r, this engine reads %r" % (where, fmt, FORMAT))
            variant = text("variant")
            if "players" not in names or data["players"].shape != () or data["players"].dtype.kind not in "iu":
                raise ValueError("%s: 'players' must be a whole number" % where)
            players = int(data["players"])
            trunk = []
            while "trunk.%d.weight" % len(trunk) in names:
                i = len(trunk)
                if "trunk.%d.bias" % i not in names:
                    raise ValueError("%s: trunk.%d.bias is missing" % (where, i))
                trunk.append((data["trunk.%d.weight" % i], data["trunk.%d.bias" % i]))
            heads = []
            for head in ("policy", "value"):
                for part in ("weight", "bias"):
                    if "%s.%s" % (head, part) not in names:
                        raise ValueError("%s: %s.%s is missing" % (where, head, part))
                heads.append((data[head + ".weight"], data[head + ".bias"]))
            meta = {}
            if "meta" in names:
                try:
                    meta = json.loads(text("meta"))
                except json.JSONDecodeError as e:
                    raise ValueError("%s: 'meta' is not JSON: %s" % (where, e)) from None
                if not isinstance(meta, dict):
                    raise ValueError("%s: 'meta' must be a JSON object" % where)
        except (OSError, zipfile.BadZipFile, EOFError) as e:  # a damaged member
            raise ValueError("%s: a damaged weights file: %s" % (where, e)) from None
    return check_network_arrays(variant, players, trunk, heads[0], heads[1], meta, where)


def check_inputs(observations, masks, size, actions, where):
    """A network's call arguments: ``observations`` as float32 ``[N, size]`` (a single row ``[size]`` is refused:
    the network takes batches) and ``masks`` (None, or bool ``[N, actions]``, not used by the network itself).
    Returns the observations, C-contiguous float32."""
    import numpy as np

    obs = np.asarray(observations)
    if obs.ndim != 2 or obs.shape[1] != size:
        raise ValueError("%s: observations must have shape (N, %d), not %s" % (where, size, _shape_text(obs.shape)))
    if obs.dtype != np.float32:
        if obs.dtype.kind not in "fiub":
            raise TypeError("%s: observations must be float32, not %s" % (where, obs.dtype))
        obs = obs.astype(np.float32)
    if masks is not None:
        m = np.asarray(masks)
        if m.shape != (obs.shape[0], actions):
            raise ValueError("%s: masks must have shape (%d, %d), not %s" % (where, obs.shape[0], actions,
                                                                             _shape_text(m.shape)))
    return np.ascontiguousarray(obs)


class Network:
    """A built-in network (docs/network.md) of this engine: ``variant``, ``players``, ``layers`` (the sizes from
    the observation to the last trunk layer), ``num_actions`` and ``meta`` (the file's free-form facts: how it
    was trained, how strong it is).  Calling it on a batch gives ``(logits, values)``: float32 ``[N, num_actions]``
    (every action's; the masks, when given, are checked, not applied) and ``[N, players]`` (tanh, each seat's
    value from the observer's seat on, as an evaluator of the guided search returns them).  Read one with
    ``load_network(path)``; both engines compute the same bits."""

    # A dict: each attribute's docstring (the API reference lists them).
    __slots__ = {"variant": "The variant it was made for: 'classic', 'grey' or 'summer-pavilion'.",
                 "players": "The player count it was made for, 2-4.",
                 "layers": "The layer sizes, from the observation to the last trunk layer.",
                 "num_actions": "The policy head's outputs: the variant's action count.",
                 "meta": "The file's free-form facts (how it was trained, how strong it is): a dict.",
                 "path": "The file it was read from, or None (Network.from_arrays).",
                 "_trunk": None, "_policy": None, "_value": None}

    def __init__(self, *args, **kwargs):
        raise TypeError("cannot create 'Network' instances: use load_network(path) or Network.from_arrays(...)")

    @classmethod
    def from_arrays(cls, variant, players, trunk, policy, value, meta=None):
        """A network from its parts: ``trunk`` a list of ``(weight, bias)`` (weights ``(out, in)``, as PyTorch's
        ``nn.Linear``), ``policy`` and ``value`` pairs of the heads; ``meta`` a dict."""
        return cls._make(check_network_arrays(variant, players, trunk, policy, value, meta, "Network"), None)

    @classmethod
    def _make(cls, parts, path):
        variant, players, trunk, policy, value, meta = parts
        self = object.__new__(cls)
        self.variant, self.players, self.meta, self.path = variant, players, dict(meta), path
        self.layers = (trunk[0][0].shape[1],) + tuple(w.shape[0] for w, _ in trunk)
        self.num_actions = policy[0].shape[0]
        # Weights kept transposed, (in, out): a layer adds input i's row to every output at once.
        self._trunk = [(w.T.copy(), b) for w, b in trunk]
        self._policy = (policy[0].T.copy(), policy[1])
        self._value = (value[0].T.copy(), value[1])
        return self

    def __repr__(self):
        return "Network(variant=%r, players=%d, layers=%s, num_actions=%d)" % (
            self.variant, self.players, "x".join(str(n) for n in self.layers), self.num_actions)

    def __reduce__(self):
        return (_network_from_state, (self.variant, self.players,
                                      [(w.T.copy(), b) for w, b in self._trunk], (self._policy[0].T.copy(),
                                                                                  self._policy[1]),
                                      (self._value[0].T.copy(), self._value[1]), self.meta, self.path))

    @staticmethod
    def _dense(x, weight_t, bias):
        """``bias`` plus each input's product with its row, added in input order (float32, no fused
        multiply-add): the C++ engine's bits.  A zero input adds nothing and is skipped."""
        import numpy as np

        y = np.empty((x.shape[0], bias.shape[0]), dtype=np.float32)
        y[:] = bias
        nonzero = np.flatnonzero(x.any(axis=0))
        for i in nonzero:
            y += x[:, i, None] * weight_t[i]
        return y

    def forward(self, observations):
        """``(logits, values)`` of observations ``[N, layers[0]]`` (docs/network.md, "The forward pass")."""
        return self._forward(check_inputs(observations, None, self.layers[0], self.num_actions, "Network"))

    def _forward(self, observations):
        import numpy as np

        h = observations
        for w, b in self._trunk:
            h = self._dense(h, w, b)
            np.maximum(h, 0, out=h)
        logits = self._dense(h, *self._policy)
        raw = self._dense(h, *self._value)
        values = np.array([[math.tanh(float(v)) for v in row] for row in raw], dtype=np.float32).reshape(raw.shape)
        return logits, values

    def __call__(self, observations, masks=None):
        obs = check_inputs(observations, masks, self.layers[0], self.num_actions, "Network")
        return self._forward(obs)

    def evaluate(self, observations, masks=None):
        """The same as calling the network: ``(logits, values)`` of a batch (an evaluator of the guided search)."""
        return self(observations, masks)

    def _forward_seconds(self, observations, repeats):
        """For the benchmarks: the seconds ``repeats`` forward passes of the batch take."""
        import time

        obs = check_inputs(observations, None, self.layers[0], self.num_actions, "Network")
        start = time.perf_counter()
        for _ in range(repeats):
            self._forward(obs)
        return time.perf_counter() - start


def _network_from_state(variant, players, trunk, policy, value, meta, path):
    net = Network._make(check_network_arrays(variant, players, trunk, policy, value, meta, "Network"), path)
    return net


def load_network(path):
    """The network in the weights file at ``path`` (docs/network.md): a ``Network`` of this engine.  Errors name
    the file and what is wrong with it (``read_network``)."""
    return Network._make(read_network(path), os.fspath(path))


def check_network_for(net, state, where):
    """ValueError unless ``net`` (a Network of either engine) was made for the variant and player count of
    ``state``."""
    if net.variant != state.variant or net.players != state.players:
        raise ValueError("%s: the network%s is for %s with %d players, not %s with %d players"
                         % (where, " " + net.path if net.path else "", net.variant, net.players, state.variant,
                            state.players))
