// Random playouts inside the engine: whole games of uniformly random legal moves, on any number
// of threads, with per-game seeds so that results do not depend on the thread count.
// The pure-Python twin is the "playouts" section of python/azul_engine/_pyengine.py.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include "azul/state.h"

namespace azul {

// The k-th output (k >= 1) of SplitMix64 seeded with `seed`: game i of a batch uses outputs
// 2i+1 (the game's seed) and 2i+2 (the seed of its move choices).
uint64_t SplitMixOutput(uint64_t seed, uint64_t k);

// Plays `s` to its end: each move is LegalActions(s)[Below(policy, count)]; chance nodes of an
// explicit-chance state are drawn from the game's generator, as in sampled mode.  No allocation.
void PlayRandom(State& s, uint64_t& policy);

// Runs body(i) for i in [0, n) on `threads` threads (contiguous blocks; threads <= 0: all
// cores); returns the plies body returned, summed.
template <typename Body>
uint64_t Parallel(int n, int threads, Body body) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  threads = std::max(1, std::min(threads, n));
  std::vector<uint64_t> plies(threads, 0);
  auto run = [&](int t) {
    const int lo = static_cast<int>(static_cast<int64_t>(n) * t / threads);
    const int hi = static_cast<int>(static_cast<int64_t>(n) * (t + 1) / threads);
    uint64_t count = 0;
    for (int i = lo; i < hi; ++i) count += body(i);
    plies[t] = count;
  };
  if (threads == 1) {
    run(0);
  } else {
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t) pool.emplace_back(run, t);
    run(0);
    for (std::thread& th : pool) th.join();
  }
  uint64_t total = 0;
  for (uint64_t p : plies) total += p;
  return total;
}

// A batch of random games, for either variant: game i is start(output 2i+1 of SplitMix64(seed)),
// played by play(game, policy) from policy seed output 2i+2; its final scores go to row i of
// `out` (n x players) as score(game, p).  Returns the plies played, summed.
template <typename Start, typename Play, typename Score>
uint64_t PlayoutBatch(int n, int players, uint64_t seed, int threads, int32_t* out, Start start,
                      Play play, Score score) {
  return Parallel(n, threads, [&](int i) {
    auto game = start(SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 1));
    uint64_t policy = SplitMixOutput(seed, 2 * static_cast<uint64_t>(i) + 2);
    const uint64_t plies = play(game, policy);
    for (int p = 0; p < players; ++p) out[static_cast<int64_t>(i) * players + p] = score(game, p);
    return plies;
  });
}

// Final scores (n x players, row-major, into `out`) of n random games: game i is
// NewGame(players, variant, output 2i+1) played with policy seed output 2i+2.  threads <= 0:
// all cores.  Returns the plies played (moves, not chance draws).
uint64_t RandomPlayouts(int n, int players, Variant variant, uint64_t seed, int threads,
                        int32_t* out);

// Final scores (n x players) of n random continuations of `s`: continuation i reseeds the
// game's generator with output 2i+1 of SplitMix64(seed) and chooses moves with output 2i+2.
uint64_t PlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out);

}  // namespace azul
