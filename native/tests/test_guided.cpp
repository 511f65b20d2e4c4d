// The built-in network and the guided search (azul/common/network.h, azul/common/guided.h), without
// Python: the network's outputs are each output's bias plus the products added in input order (a
// plain loop computes the same bits); its rows do not depend on the batch; the guided search gives the
// same result with the network and with a callback that runs it, on one thread or several, and
// many searches together give what each gives alone.  (Python's tests/test_guided.py checks the two
// engines against each other.)
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "azul/common/guided.h"
#include "azul/common/network.h"
#include "azul/common/rng.h"
#include "azul/variant.h"
#include "check.h"

using namespace azul;

namespace {

Network::Layer RandomLayer(int in, int out, uint64_t& rng) {
  Network::Layer l;
  l.in = in;
  l.out = out;
  l.weight_t.resize(static_cast<size_t>(in) * out);
  for (float& w : l.weight_t)
    w = static_cast<float>((static_cast<double>(SplitMixNext(rng) >> 11) / 9007199254740992.0 - 0.5) * 0.3);
  l.bias.resize(out);
  for (float& b : l.bias) b = static_cast<float>((static_cast<double>(SplitMixNext(rng) >> 11) / 9007199254740992.0 - 0.5) * 0.1);
  return l;
}

template <typename R>
Network RandomNetwork(Variant variant, int players, uint64_t seed) {
  uint64_t rng = seed;
  const int inputs = R::ObservationSize(players);
  std::vector<Network::Layer> trunk{RandomLayer(inputs, 40, rng), RandomLayer(40, 24, rng)};
  Network::Layer policy = RandomLayer(24, R::kNumActions, rng);
  Network::Layer value = RandomLayer(24, players, rng);
  return Network(variant, players, std::move(trunk), std::move(policy), std::move(value));
}

// The forward pass as docs/network.md writes it, one output at a time.
void Reference(const Network& net, const float* obs, float* logits, float* values) {
  std::vector<float> h(obs, obs + net.inputs()), next;
  auto dense = [](const Network::Layer& l, const std::vector<float>& x, std::vector<float>& y) {
    y.assign(l.out, 0.0f);
    for (int o = 0; o < l.out; ++o) {
      float acc = l.bias[o];
      for (int i = 0; i < l.in; ++i) acc += x[i] * l.weight_t[static_cast<size_t>(i) * l.out + o];
      y[o] = acc;
    }
  };
  for (const Network::Layer& l : net.trunk()) {
    dense(l, h, next);
    for (float& v : next) v = v > 0.0f ? v : 0.0f;
    h.swap(next);
  }
  std::vector<float> out;
  dense(net.policy(), h, out);
  std::memcpy(logits, out.data(), sizeof(float) * out.size());
  dense(net.value(), h, out);
  for (size_t k = 0; k < out.size(); ++k) values[k] = static_cast<float>(std::tanh(static_cast<double>(out[k])));
}

// Decision positions of seeded random games.
template <typename R>
std::vector<typename R::State> Positions(Variant variant, int players, int count, uint64_t seed) {
  std::vector<typename R::State> out;
  uint64_t rng = seed;
  for (int g = 0; static_cast<int>(out.size()) < count; ++g) {
    typename R::State s = R::NewGame(players, variant, seed + g, false, nullptr);
    const int moves = Below(rng, 40);
    for (int m = 0; m < moves && !R::IsOver(s); ++m) {
      const std::vector<int> legal = R::LegalActionList(s);
      R::ApplyAction(s, legal[Below(rng, static_cast<int>(legal.size()))], nullptr);
    }
    if (!R::IsOver(s) && !R::IsChanceNode(s)) out.push_back(s);
  }
  return out;
}

template <typename R>
void NetworkMatchesTheReference(Variant variant, int players) {
  const Network net = RandomNetwork<R>(variant, players, 7);
  const std::vector<typename R::State> states = Positions<R>(variant, players, 11, 3);
  const int n = static_cast<int>(states.size()), d = net.inputs(), a = net.num_actions();
  std::vector<float> obs(static_cast<size_t>(n) * d), logits(static_cast<size_t>(n) * a), values(static_cast<size_t>(n) * players);
  for (int i = 0; i < n; ++i) R::Observation(states[i], R::CurrentPlayer(states[i]), obs.data() + static_cast<size_t>(i) * d);
  Network::Scratch scratch;
  net.Reserve(scratch, n);
  net.Forward(obs.data(), n, logits.data(), values.data(), scratch);
  std::vector<float> l1(a), v1(players), lr(a), vr(players);
  for (int i = 0; i < n; ++i) {
    Reference(net, obs.data() + static_cast<size_t>(i) * d, lr.data(), vr.data());
    net.Forward(obs.data() + static_cast<size_t>(i) * d, 1, l1.data(), v1.data(), scratch);  // alone
    for (int k = 0; k < a; ++k) {
      CHECK_EQ(logits[static_cast<size_t>(i) * a + k], lr[k]);
      CHECK_EQ(l1[k], lr[k]);
    }
    for (int k = 0; k < players; ++k) CHECK_EQ(values[static_cast<size_t>(i) * players + k], vr[k]);
  }
}

bool SameOutcome(const GuidedOutcome& x, const GuidedOutcome& y) {
  const SearchOutcome &a = x.search, &b = y.search;
  if (a.rows.size() != b.rows.size() || a.pv != b.pv || a.iterations != b.iterations || a.nodes != b.nodes ||
      a.next_seed != b.next_seed || x.priors != y.priors || x.root_value != y.root_value)
    return false;
  for (size_t i = 0; i < a.rows.size(); ++i)
    if (a.rows[i].action != b.rows[i].action || a.rows[i].visits != b.rows[i].visits || a.rows[i].total != b.rows[i].total)
      return false;
  return true;
}

template <typename R>
void GuidedAgrees(Variant variant, int players) {
  const Network net = RandomNetwork<R>(variant, players, 11);
  Evaluator native;
  native.network = &net;
  Evaluator callback;
  int calls = 0;
  Network::Scratch scratch;
  callback.call = [&](int rows, const float* obs, const uint8_t* masks, float* logits, float* values) {
    ++calls;
    for (int i = 0; i < rows; ++i) {  // the masks hold the legal actions of the rows
      int legal = 0;
      for (int k = 0; k < net.num_actions(); ++k) legal += masks[static_cast<size_t>(i) * net.num_actions() + k];
      CHECK(legal > 0);
    }
    net.Reserve(scratch, rows);
    net.Forward(obs, rows, logits, values, scratch);
  };
  const std::vector<typename R::State> states = Positions<R>(variant, players, 4, 9);
  std::vector<uint64_t> seeds{5, 6, 7, 8};
  GuidedOptions o;
  o.iterations = 120;
  o.batch = 4;
  o.noise_alpha = 0.3;
  o.trees = 2;
  const std::vector<GuidedOutcome> a = GuidedSearch<R>(states, seeds, o, native);
  o.threads = 3;  // the trees on threads: the same trees
  const std::vector<GuidedOutcome> b = GuidedSearch<R>(states, seeds, o, native);
  const std::vector<GuidedOutcome> c = GuidedSearch<R>(states, seeds, o, callback);
  CHECK(calls > 0);
  for (size_t i = 0; i < states.size(); ++i) {
    CHECK(SameOutcome(a[i], b[i]));
    CHECK(SameOutcome(a[i], c[i]));
    CHECK_EQ(a[i].search.iterations, 120);
    const std::vector<GuidedOutcome> alone = GuidedSearch<R>({states[i]}, {seeds[i]}, o, native);
    CHECK(SameOutcome(a[i], alone[0]));
  }
}

}  // namespace

TEST(network_classic_matches_the_reference) { NetworkMatchesTheReference<ClassicRules>(kClassic, 2); }
TEST(network_pavilion_matches_the_reference) { NetworkMatchesTheReference<PavilionRules>(kSummerPavilion, 3); }
TEST(guided_classic_agrees) { GuidedAgrees<ClassicRules>(kGrey, 3); }
TEST(guided_pavilion_agrees) { GuidedAgrees<PavilionRules>(kSummerPavilion, 2); }

CHECK_MAIN()
