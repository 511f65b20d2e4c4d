// The guided search (docs/search.md sections 10-15): PUCT over open-loop trees with an evaluator's
// priors and values instead of rollouts, leaves evaluated in batches with virtual loss, Dirichlet
// noise at the root, root-parallel trees, and many searches sharing one evaluator batch
// (search_many).  The evaluator is the built-in network (azul/common/network.h), run on any thread
// without Python, or a callback (the bindings' Python callable, called on the calling thread only).
// Pure-Python twin: python/azul_engine/_pure/guided.py.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "azul/common/network.h"
#include "azul/common/parallel.h"
#include "azul/common/search.h"

namespace azul {

// The arguments of a guided search (docs/search.md section 10), checked by the caller.
struct GuidedOptions {
  int64_t iterations = 1000;  // a search's, over its trees; used when seconds <= 0
  double seconds = 0;         // > 0: a time budget instead
  int trees = 1;              // trees a search (search's `threads`)
  int threads = 1;            // system threads sharing the trees (the built-in network only)
  double margin = 0.4;
  int64_t max_nodes = kDefaultMaxNodes;  // a search's, over its trees
  int batch = 8;                         // leaves a tree collects before each evaluation
  double c_puct = 1.25;
  double fpu = 0.25;
  double noise_alpha = 0;  // 0: no noise
  double noise_fraction = 0.25;
  // Section 16: with at most this many moves left at the root, a leaf of its round with at most as many is
  // valued at its best line's end; 0 never.
  int exact = kDefaultExact;
};

// What evaluates the leaves: the built-in network, or `call(rows, observations, masks, logits,
// values)` (observations rows x inputs float32, masks rows x actions bytes 0/1; it writes logits
// rows x actions and values rows x players, by seat from the observer's).  `call` runs on the
// calling thread only, and may throw: the search stops and rethrows it, freeing everything.
struct Evaluator {
  const Network* network = nullptr;
  std::function<void(int, const float*, const uint8_t*, float*, float*)> call;
};

// One search's result: SearchOutcome's fields (rows by merged root children, the principal
// variation, ...), with the root's priors of the rows' actions and its value for the player.
struct GuidedOutcome {
  SearchOutcome search;
  std::vector<float> priors;  // one a row of search.rows
  float root_value = 0;
  int64_t evaluations = 0;    // rows evaluated (the root's included)
};

// Searches from each of `roots` (decision nodes of the same variant and player count; the caller
// checks), search i from seeds[i], all together: one evaluator call a round for every tree's leaves
// (a callback), or on options.threads threads sharing the trees (the network).  `stop` is polled
// on the calling thread between rounds: when it says stop, Interrupted is thrown.
template <typename R>
std::vector<GuidedOutcome> GuidedSearch(const std::vector<typename R::State>& roots, const std::vector<uint64_t>& seeds,
                                        const GuidedOptions& options, const Evaluator& evaluator, StopCheck stop = {});

}  // namespace azul
