// Monte Carlo tree search over the rules traits of azul/variant.h: open-loop UCT over reseeded
// copies, the greedy bot's best moves at the root, rollouts in the playout kernels, root-parallel
// trees on threads.  docs/search.md is the algorithm, section by section; the pure-Python twin is
// python/azul_engine/_pure/search.py, and the two return the same result for the same arguments.
// Pure-Python twin: python/azul_engine/_pure/search.py (RankRows and TreeSeed: python/azul_engine/_pure/search_common.py).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "azul/common/parallel.h"

namespace azul {

constexpr int64_t kDefaultMaxNodes = 2000000;
constexpr int kDefaultExact = 0;  // docs/search.md section 16.1 (the pure engine's DEFAULT_EXACT)
constexpr uint64_t kTreeSalt = 0xD1B54A32D192ED03ULL;  // docs/search.md section 2.1

// The arguments of a search (docs/search.md section 1), checked by the caller.
struct SearchOptions {
  int64_t iterations = 1000;  // in all trees; used when seconds <= 0
  double seconds = 0;         // > 0: a time budget instead
  int threads = 1;            // trees, one a thread
  uint64_t seed = 0;
  double c = 0.7;
  double margin = 0.4;
  int rollouts = 4;
  Policy policy = Policy::kLight;
  int candidates = 5;
  int inner_candidates = 5;
  int64_t widen = 1000;  // the pruned root's next move joins at this many visits, then at each doubling; 0 never
  int64_t max_nodes = kDefaultMaxNodes;
  // Section 16: with at most this many moves left at the root, a leaf of its round with at most as many plays
  // its best line first, and the exact best move is a candidate where moves are pruned; 0 never.
  int exact = kDefaultExact;
};

// One root action tried: its visits and its totals for the root's player, summed over the trees.
struct SearchRow {
  int action;
  int64_t visits;
  double total;
};

// What a search found (docs/search.md section 6); the bindings add the notation of the rows.
struct SearchOutcome {
  int player = 0;
  std::vector<SearchRow> rows;  // most visited first; ties: the greater mean, then the lower id
  std::vector<int> pv;
  std::vector<std::string> pv_moves;
  int64_t iterations = 0;
  int64_t nodes = 0;
  bool full = false;
  uint64_t next_seed = 0;
  double seconds = 0;
};

// Most visited first; ties: the greater mean, then the lower id (section 6).
void RankRows(std::vector<SearchRow>& rows);

// The generator state of tree t >= 1 of a search from `seed` (section 2.1): output t of
// SplitMix64(seed ^ kTreeSalt).
uint64_t TreeSeed(uint64_t seed, int t);

// Searches from `root`, a decision node (not a chance node, not over; the caller checks) of the
// rules R (ClassicRules or PavilionRules).  `stop` is polled on the calling thread about every
// kPollMillis ms: when it says stop, every thread stops and Interrupted is thrown.  A thread the
// system refuses is a std::runtime_error, thrown after joining the others.
template <typename R>
SearchOutcome Search(const typename R::State& root, const SearchOptions& options, StopCheck stop = {});

}  // namespace azul
