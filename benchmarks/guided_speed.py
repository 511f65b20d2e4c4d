"""The guided search's speed in one run (docs/network.md "Speed" and "Memory"; docs/search.md sections 10-15):

    python benchmarks/guided_speed.py [--repeats N] [--seconds S] [--json]

From ``bench.search_positions`` (8 mid-game 2-player positions per variant), the C++ engine, one thread unless
said, each figure the median of ``--repeats`` timed runs after a warm-up:

- ``forward``: the built-in network's forward passes alone (``bench.bench_network``: the network that ships for
  the variant, else one of its shape with random weights), on batches of B rows of leaf-like positions
  (``bench.leaf_observations``), timed inside the engine: rows/s.  This is the bound of the guided search at that
  batch size: the iterations/s of a search whose tree cost nothing.
- ``guided``: ``search(state, evaluator=network, iterations=1000, batch=B)``: iterations/s, and its ratio to the
  bound at the same B (the goal: at least 0.7).
- ``torch``: the same shape of network as a PyTorch module (CPU, one intra-op thread), its forward passes alone on
  the same batches, for comparison.
- ``torch-evaluator``: ``search(..., evaluator=torch_evaluator(module), batch=64)``: the search's own time (all but
  the evaluator's calls) as a share of the total (the goal: at most 30%).
- ``rollout``: today's rollout search at its defaults (``search(state, iterations=1000)``): iterations/s, beside.
- ``many``: ``search_many`` of 256 positions, 100 iterations each, ``batch=1``, with the network on 1 and 2
  threads: iterations/s, and the speed-up.
- ``memory``: bytes a node, the process's peak memory over a 200,000-iteration guided search (in a fresh process,
  its high-water mark reset before the search: Linux's /proc/self/clear_refs).

Take the figures on a quiet machine: nothing else running.
"""

import argparse
import json
import statistics
import subprocess
import sys
import time

import numpy as np

import azul_engine
from azul_engine import bench, network

E = azul_engine.load_backend("cpp")
VARIANTS = ("classic", "summer-pavilion")


def median_rate(run, seconds, repeats):
    run()  # warm-up
    rates = []
    for _ in range(repeats):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < seconds:
            done += run()
        rates.append(done / (time.perf_counter() - start))
    return statistics.median(rates)


def forward_rate(net, batches, seconds, repeats):
    def run():
        return sum(len(b) * 20 for b in batches if net._forward_seconds(b, 20) >= 0)
    return median_rate(run, seconds, repeats)


def guided_rate(net, positions, batch, seconds, repeats, seeds=iter(range(1 << 30))):
    def run():
        return sum(E.search(s, evaluator=net, iterations=1000, batch=batch, seed=next(seeds)).iterations
                   for s in positions)
    return median_rate(run, seconds, repeats)


def torch_module(net):
    """A PyTorch module with the network's weights (the bench network's, read back through its pickle)."""
    import torch

    variant, players, trunk, policy, value = net.__reduce__()[1][:5]
    module = network.torch_network(variant, players, tuple(w.shape[0] for w, _ in trunk)).eval()
    layers = [m for m in module.trunk if isinstance(m, torch.nn.Linear)] + [module.policy, module.value]
    with torch.no_grad():
        for layer, (w, b) in zip(layers, list(trunk) + [policy, value]):
            layer.weight.copy_(torch.from_numpy(np.asarray(w)))
            layer.bias.copy_(torch.from_numpy(np.asarray(b)))
    return module


def torch_rate(module, batches, seconds, repeats):
    import torch

    tensors = [torch.from_numpy(b) for b in batches]

    def run():
        with torch.inference_mode():
            for t in tensors:
                module(t)
        return sum(len(t) for t in tensors)
    return median_rate(run, seconds, repeats)


def torch_share(module, positions, repeats):
    """The search's own share of the time of searches with a PyTorch evaluator in batches of 64."""
    inner = network.torch_evaluator(module)
    spent = [0.0]

    def evaluate(observations, masks):
        start = time.perf_counter()
        out = inner(observations, masks)
        spent[0] += time.perf_counter() - start
        return out

    shares, rates = [], []
    for r in range(repeats + 1):
        spent[0] = 0.0
        start = time.perf_counter()
        done = sum(E.search(s, evaluator=evaluate, iterations=2048, batch=64, seed=r).iterations for s in positions)
        total = time.perf_counter() - start
        if r:  # the first is a warm-up
            shares.append((total - spent[0]) / total)
            rates.append(done / total)
    return statistics.median(shares), statistics.median(rates)


def rollout_rate(positions, seconds, repeats, seeds=iter(range(1 << 30))):
    def run():
        return sum(E.search(s, iterations=1000, seed=next(seeds)).iterations for s in positions)
    return median_rate(run, seconds, repeats)


def many_rate(net, variant, threads, seconds, repeats):
    states = [E.new_game(2, variant, seed=s) for s in range(256)]

    def run():
        return sum(r.iterations for r in E.search_many(states, evaluator=net, iterations=100, threads=threads))
    return median_rate(run, seconds, repeats)


MEMORY = r"""
import sys, azul_engine
from azul_engine import bench
E = azul_engine.load_backend("cpp")
variant = sys.argv[1]
state = bench.search_positions(E, variant)[0]
net = bench.bench_network(E, variant)
E.search(state, evaluator=net, iterations=50)

def status(field):  # kB
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(field + ":"))

# The peak so far is the setup's (its temporaries): Linux resets the high-water mark to the present size when 5
# is written to clear_refs, so that the peak below is the search's own.
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
before = status("VmRSS")
result = E.search(state, evaluator=net, iterations=200000, batch=8)
print((status("VmHWM") - before) * 1024 / result.nodes)
"""


def memory_per_node(variant):
    out = subprocess.run([sys.executable, "-c", MEMORY, variant], capture_output=True, text=True, check=True)
    return float(out.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--json", action="store_true", help="one JSON line per figure")
    args = parser.parse_args(argv)
    try:
        import torch
        torch.set_num_threads(1)
    except ImportError:
        torch = None
    rows = []
    for variant in VARIANTS:
        positions = bench.search_positions(E, variant)
        net = bench.bench_network(E, variant)
        observations = bench.leaf_observations(E, positions, 64 * 16)
        module = torch_module(net) if torch else None
        for batch in (1, 8, 64):
            batches = [observations[i:i + batch] for i in range(0, len(observations), batch)][:16]
            bound = forward_rate(net, batches, args.seconds, args.repeats)
            found = guided_rate(net, positions, batch, args.seconds, args.repeats)
            row = {"variant": variant, "batch": batch, "network": "x".join(map(str, net.layers)),
                   "forward_rows_per_s": round(bound), "guided_iterations_per_s": round(found),
                   "ratio": round(found / bound, 3)}
            if module is not None:
                row["torch_rows_per_s"] = round(torch_rate(module, batches, args.seconds, args.repeats))
            rows.append(row)
        if module is not None:
            share, rate = torch_share(module, positions, args.repeats)
            rows.append({"variant": variant, "measure": "torch-evaluator", "batch": 64,
                         "search_share_of_time": round(share, 3), "iterations_per_s": round(rate)})
        rows.append({"variant": variant, "measure": "rollout", "iterations_per_s":
                     round(rollout_rate(positions, args.seconds, args.repeats))})
        one = many_rate(net, variant, 1, args.seconds, args.repeats)
        two = many_rate(net, variant, 2, args.seconds, args.repeats)
        rows.append({"variant": variant, "measure": "search_many", "positions": 256, "iterations": 100,
                     "iterations_per_s_1_thread": round(one), "iterations_per_s_2_threads": round(two),
                     "speedup": round(two / one, 2)})
        rows.append({"variant": variant, "measure": "memory", "bytes_per_node": round(memory_per_node(variant), 1)})
    for row in rows:
        print(json.dumps(row) if args.json else "  ".join("%s=%s" % kv for kv in row.items()))


if __name__ == "__main__":
    main()
