// The guided search (azul/common/guided.h), written once over the rules traits; the numbered steps
// are docs/search.md's sections 10-15.  The pure-Python twin: python/azul_engine/_pure/guided.py.
//
// A tree is a vector of 64-byte nodes addressed by index, and three arenas that an expanded node's
// lists take in step (so that one index finds all three): its legal actions (int16), their priors
// (float32) and its children by slot (int32).  A round collects up to `batch` leaves a tree, writing
// the observation rows (and, for a callback, the masks) of those that need the evaluator straight into
// the batch buffers, which are sized up front: nothing is allocated per iteration once the paths'
// and nodes' vectors have grown to the tree's needs.
// Pure-Python twin: python/azul_engine/_pure/guided.py.
#include "azul/common/guided.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "azul/common/arena.h"
#include "azul/common/exact.h"
#include "azul/common/rng.h"
#include "azul/common/utility.h"
#include "azul/variant.h"

namespace azul {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint32_t kNone = 0xFFFFFFFFu;
constexpr double kVirtualLoss = 1.0;  // section 12: a pending visit counts as this loss for its chooser
constexpr double kTwoPi = 2.0 * 3.141592653589793;

enum Kind : int8_t { kExpand, kValue, kTerminal, kStored };  // what a leaf needs (section 12, step 2)

struct Node {
  double totals[kMaxPlayers];  // each player's value summed over the visits through it
  float value[kMaxPlayers];    // an expanded node's evaluation, by player
  int32_t visits;
  int32_t pending_visits;      // virtual visits of this round (section 12)
  uint32_t list;               // the expanded node's lists in the three arenas; kNone until expanded
  int16_t num;                 // its legal actions
  uint8_t pending;             // its evaluation is awaited this round
  uint8_t unused;
};
static_assert(sizeof(Node) == 64, "a node is one cache line");

// The buffers of one thread's evaluations: a row a leaf that needs the evaluator.
struct Batch {
  int inputs = 0, actions = 0, players = 0;
  bool masks_wanted = false;
  int rows = 0, capacity = 0;
  std::vector<float> observations, logits, values;
  std::vector<uint8_t> masks;
  Network::Scratch scratch;

  void Reserve(int n, const Evaluator& e) {
    capacity = n;
    observations.assign(static_cast<size_t>(n) * inputs, 0.0f);
    logits.assign(static_cast<size_t>(n) * actions, 0.0f);
    values.assign(static_cast<size_t>(n) * players, 0.0f);
    if (masks_wanted) masks.assign(static_cast<size_t>(n) * actions, 0);
    if (e.network) e.network->Reserve(scratch, n);
  }
  void Evaluate(const Evaluator& e) {
    if (rows == 0) return;
    if (e.network)
      e.network->Forward(observations.data(), rows, logits.data(), values.data(), scratch);
    else
      e.call(rows, observations.data(), masks.data(), logits.data(), values.data());
  }
  // Writes the row of `s` seen by `player` (the player to move), the mask from `legal`: its index.
  template <typename R>
  int Add(const typename R::State& s, int player, const int16_t* legal, int n) {
    const int row = rows++;
    R::Observation(s, player, observations.data() + static_cast<size_t>(row) * inputs);
    if (masks_wanted) {
      uint8_t* m = masks.data() + static_cast<size_t>(row) * actions;
      std::memset(m, 0, static_cast<size_t>(actions));
      for (int j = 0; j < n; ++j) m[legal[j]] = 1;
    }
    return row;
  }
};

// Section 13: the uniform, normal and gamma draws of the root's Dirichlet noise.
double Unit(uint64_t& rng) { return static_cast<double>((SplitMixNext(rng) >> 11) + 1) * (1.0 / 9007199254740992.0); }

double Normal(uint64_t& rng) {
  const double u1 = Unit(rng);
  const double u2 = Unit(rng);
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

double Gamma(double alpha, uint64_t& rng) {
  const double a = alpha < 1.0 ? alpha + 1.0 : alpha;
  const double d = a - 1.0 / 3.0;
  const double c = 1.0 / std::sqrt(9.0 * d);
  double v;
  for (;;) {
    const double x = Normal(rng);
    v = 1.0 + c * x;
    if (v <= 0.0) continue;
    v = v * v * v;
    const double u = Unit(rng);
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * (x2 * x2)) break;
    if (std::log(u) < 0.5 * x2 + d * (1.0 - v + std::log(v))) break;
  }
  double g = d * v;
  if (alpha < 1.0) g = g * std::pow(Unit(rng), 1.0 / alpha);
  return g;
}

// Section 11: the priors of `legal` (n of them), a softmax of `logits` over them in double, as float32.
void SoftmaxPriors(const float* logits, const int16_t* legal, int n, float* out, double* scratch) {
  double m = logits[legal[0]];
  for (int j = 0; j < n; ++j)
    if (static_cast<double>(logits[legal[j]]) > m) m = logits[legal[j]];
  double s = 0.0;
  for (int j = 0; j < n; ++j) {
    scratch[j] = std::exp(static_cast<double>(logits[legal[j]]) - m);
    s += scratch[j];
  }
  for (int j = 0; j < n; ++j) out[j] = static_cast<float>(scratch[j] / s);
}

// An evaluator's value row (seat k is the k-th after the observer `player`) by player.
void Absolute(const float* row, int player, int players, double* out) {
  for (int k = 0; k < players; ++k) out[(player + k) % players] = static_cast<double>(row[k]);
}

// Section 11: each player's value of a finished game, 2 * u - 1 of the utility of section 4.
template <typename R>
void TerminalValue(const typename R::State& s, double margin, double* out) {
  const int players = R::Players(s);
  int32_t scores[kMaxPlayers];
  int winners[kMaxPlayers];
  for (int p = 0; p < players; ++p) scores[p] = R::Score(s, p);
  const int count = FinalWinners<R>(s, winners);
  double u[kMaxPlayers] = {};
  AddUtility(scores, players, winners, count, margin, 1.0, u);
  for (int p = 0; p < players; ++p) out[p] = 2.0 * u[p] - 1.0;
}

// One search: its root, the root's evaluation, its options (section 12, the setup).
template <typename R>
struct Root {
  typename R::State state;
  uint64_t seed;
  int player, players;
  std::vector<int16_t> legal;
  std::vector<float> priors;
  double value[kMaxPlayers] = {};
  int64_t evaluations = 0;
  bool exact = false;  // section 16.1: the root has at most `exact` moves left in its round
};

template <typename R>
class Tree {
 public:
  using State = typename R::State;

  Tree(const Root<R>& root, const GuidedOptions& o, uint64_t seed, int64_t budget, int64_t capacity)
      : root_(root), o_(o), rng_(seed), budget_(budget), capacity_(capacity), players_(root.players) {
    end_legal_.resize(static_cast<size_t>(R::kNumActions + kLegalScratch));
    nodes_.reserve(static_cast<size_t>(std::max<int64_t>(1, std::min(o.seconds > 0 ? int64_t{1} << 12 : budget + 1,
                                                                       capacity))));
    paths_.reserve(static_cast<size_t>(o.batch) * 64);
    leaves_.reserve(static_cast<size_t>(o.batch));
    legal_.resize(static_cast<size_t>(o.batch) * (R::kNumActions + kLegalScratch));
    NewNode();
    const int n = static_cast<int>(root.legal.size());
    Node& nd = nodes_[0];
    nd.list = TakeLists(n);
    nd.num = static_cast<int16_t>(n);
    std::memcpy(actions_.At(nd.list), root.legal.data(), sizeof(int16_t) * n);
    std::memcpy(priors_.At(nd.list), root.priors.data(), sizeof(float) * n);
    std::fill(kids_.At(nd.list), kids_.At(nd.list) + n, -1);
    for (int p = 0; p < players_; ++p) {
      nd.value[p] = static_cast<float>(root.value[p]);
      nd.totals[p] = root.value[p];
    }
    nd.visits = 1;  // section 12: the root's evaluation is its first visit
    if (o.noise_alpha > 0.0 && o.noise_fraction > 0.0) {  // section 13
      double* g = scratch_;
      double total = 0.0;
      for (int j = 0; j < n; ++j) g[j] = Gamma(o.noise_alpha, rng_);
      for (int j = 0; j < n; ++j) total += g[j];
      const double f = o.noise_fraction;
      float* pr = priors_.At(nodes_[0].list);
      for (int j = 0; j < n; ++j) {
        const double eta = total == 0.0 ? 1.0 / n : g[j] / total;
        pr[j] = static_cast<float>((1.0 - f) * static_cast<double>(pr[j]) + f * eta);
      }
    }
  }

  // Section 16.4: the exact search of the thread that grows this tree, made at its first use, polling `stop`
  // (the calling thread's) and `halt`.
  void SetSolver(std::unique_ptr<RoundSolver<R>>* solver, StopCheck stop, const std::atomic<bool>* halt) {
    solver_ = solver;
    solver_stop_ = stop;
    halt_ = halt;
  }

  bool Active(bool timed) const { return !stopped_ && (timed || done_ < budget_); }
  void Stop() { stopped_ = true; }

  // Section 12, step 1: up to `batch` leaves, virtual losses on their paths; the rows of those that need
  // the evaluator go to `batch`.
  void Collect(bool timed, Batch& batch) {
    leaves_.clear();
    paths_.clear();
    int legal_used = 0;
    while (static_cast<int>(leaves_.size()) < o_.batch &&
           (timed || done_ + static_cast<int64_t>(leaves_.size()) < budget_)) {
      Leaf leaf;
      int16_t* legal = legal_.data() + static_cast<size_t>(legal_used) * (R::kNumActions + kLegalScratch);
      if (!Descend(leaf, legal, batch)) break;
      for (uint32_t i = 0; i < leaf.path_len; ++i) ++nodes_[paths_[leaf.path_at + i]].pending_visits;
      if (leaf.kind == kExpand) {
        nodes_[leaf.node].pending = 1;
        leaf.legal_at = legal_used++;
      }
      leaves_.push_back(leaf);
    }
  }

  // Section 12, step 4, in the order the leaves were collected.
  void Backup(const Batch& batch) {
    for (Leaf& leaf : leaves_) {
      if (leaf.value_row >= 0)
        Absolute(batch.values.data() + static_cast<size_t>(leaf.value_row) * batch.players, leaf.value_player,
                 players_, leaf.value);
      if (leaf.kind == kExpand) {
        const int16_t* legal = legal_.data() + static_cast<size_t>(leaf.legal_at) * (R::kNumActions + kLegalScratch);
        const int n = leaf.num_legal;
        const uint32_t list = TakeLists(n);
        std::memcpy(actions_.At(list), legal, sizeof(int16_t) * n);
        SoftmaxPriors(batch.logits.data() + static_cast<size_t>(leaf.row) * batch.actions, legal, n,
                      priors_.At(list), scratch_);
        std::fill(kids_.At(list), kids_.At(list) + n, -1);
        Node& nd = nodes_[leaf.node];
        nd.list = list;
        nd.num = static_cast<int16_t>(n);
        for (int p = 0; p < players_; ++p) nd.value[p] = static_cast<float>(leaf.value[p]);
        nd.pending = 0;
      }
      for (uint32_t i = 0; i < leaf.path_len; ++i) {
        Node& x = nodes_[paths_[leaf.path_at + i]];
        --x.pending_visits;
        ++x.visits;
        for (int p = 0; p < players_; ++p) x.totals[p] += leaf.value[p];
      }
      ++done_;
    }
    leaves_.clear();
  }

  // Calls f(action, child) for every chosen child of `node`, in slot order.
  template <typename F>
  void ForChildren(int32_t node, F f) const {
    const Node& nd = nodes_[node];
    if (nd.list == kNone) return;
    const int16_t* legal = actions_.At(nd.list);
    const int32_t* kids = kids_.At(nd.list);
    for (int j = 0; j < nd.num; ++j)
      if (kids[j] >= 0) f(legal[j], kids[j]);
  }

  int32_t Child(int32_t node, int action) const {
    int32_t found = -1;
    ForChildren(node, [&](int a, int32_t child) {
      if (a == action) found = child;
    });
    return found;
  }

  const Node& node(int32_t i) const { return nodes_[i]; }
  int64_t Nodes() const { return static_cast<int64_t>(nodes_.size()); }
  int64_t done() const { return done_; }
  bool full() const { return full_; }
  uint64_t rng() const { return rng_; }

 private:
  struct Leaf {
    Kind kind = kExpand;
    int8_t player = 0;        // the player to move at the leaf
    int8_t value_player = 0;  // ... at the position valued (section 16.4: its exact line's end)
    int16_t num_legal = 0;
    int32_t node = 0;
    int32_t row = -1;        // the leaf's row: its priors (to expand), and its value unless value_row is another
    int32_t value_row = -1;  // the row of its value, or -1 (value known)
    int32_t legal_at = 0;
    uint32_t path_at = 0, path_len = 0;
    double value[kMaxPlayers] = {};
  };

  uint32_t TakeLists(int n) {
    const uint32_t at = actions_.Take(static_cast<uint32_t>(n));
    priors_.Take(static_cast<uint32_t>(n));
    kids_.Take(static_cast<uint32_t>(n));
    return at;
  }

  int32_t NewNode() {
    Node nd;
    std::memset(&nd, 0, sizeof nd);
    nd.list = kNone;
    nodes_.push_back(nd);
    return static_cast<int32_t>(nodes_.size() - 1);
  }

  // Section 12, step 2.4: the slot of greatest PUCT score, or -1 when the tree is full and no slot
  // has a child.
  int Select(int32_t node, int p) {
    const Node& nd = nodes_[node];
    const double sq = std::sqrt(static_cast<double>(nd.visits + nd.pending_visits));
    const double fpu_q = nd.totals[p] / static_cast<double>(nd.visits) - o_.fpu;
    const bool full = Nodes() >= capacity_;
    const float* pr = priors_.At(nd.list);
    const int32_t* kids = kids_.At(nd.list);
    int best = -1;
    double best_score = 0.0;
    for (int j = 0; j < nd.num; ++j) {
      double q;
      int64_t n;
      if (kids[j] < 0) {
        if (full) {
          full_ = true;
          continue;
        }
        q = fpu_q;
        n = 0;
      } else {
        const Node& c = nodes_[kids[j]];
        n = static_cast<int64_t>(c.visits) + c.pending_visits;
        q = (c.totals[p] - static_cast<double>(c.pending_visits) * kVirtualLoss) / static_cast<double>(n);
      }
      const double score = q + o_.c_puct * static_cast<double>(pr[j]) * sq / static_cast<double>(1 + n);
      if (best < 0 || score > best_score) {
        best = j;
        best_score = score;
      }
    }
    return best;
  }

  // As section 3, step 2.1: a chance outcome drawn from the tree's generator.
  void Draw(State& s) {
    int16_t actions[kMaxChanceOutcomes];
    double probabilities[kMaxChanceOutcomes];
    const int n = R::ChanceOutcomes(s, actions, probabilities);
    double u = static_cast<double>(SplitMixNext(rng_) >> 11) * (1.0 / static_cast<double>(1ULL << 53));
    int pick = n - 1;
    for (int i = 0; i < n; ++i) {
      u -= probabilities[i];
      if (u < 0) {
        pick = i;
        break;
      }
    }
    R::ApplyAction(s, actions[pick], nullptr);
  }

  // Section 16.4: a leaf at `s` with at most `exact` moves left in its round is valued at the end of the
  // round's best line (played on a copy, passes drawn from the tree's generator): the evaluator's value
  // there (its row added to `batch`), or the finished game's (a leaf to value becomes a finished one).
  // False when the exact search does not apply.
  bool Exact(const State& s, Leaf& leaf, Batch& batch) {
    if (!root_.exact || s.round != root_.state.round || R::MovesLeft(s) > o_.exact) return false;
    if (!*solver_) solver_->reset(new RoundSolver<R>(players_, false, 0, solver_stop_, halt_));
    State end = s;
    (*solver_)->PlayLine(end, rng_);
    if (R::IsOver(end)) {
      TerminalValue<R>(end, o_.margin, leaf.value);
      leaf.value_row = -1;
      if (leaf.kind == kValue) leaf.kind = kTerminal;
    } else {
      leaf.value_player = static_cast<int8_t>(R::CurrentPlayer(end));
      const int n = R::LegalActions(end, end_legal_.data());
      leaf.value_row = batch.Add<R>(end, leaf.value_player, end_legal_.data(), n);
      if (leaf.kind == kValue) leaf.row = leaf.value_row;
    }
    return true;
  }

  // Section 12, step 2: one descent into `leaf`; false for a collision with a leaf already pending
  // (nothing kept).  `legal` receives an expanding leaf's legal actions.
  bool Descend(Leaf& leaf, int16_t* legal, Batch& batch) {
    State s = root_.state;
    s.rng = SplitMixNext(rng_);
    int32_t node = 0;
    leaf.path_at = static_cast<uint32_t>(paths_.size());
    paths_.push_back(0);
    for (;;) {
      if (R::IsOver(s)) {
        TerminalValue<R>(s, o_.margin, leaf.value);
        leaf.kind = kTerminal;
        break;
      }
      if (R::IsChanceNode(s)) {
        Draw(s);
        continue;
      }
      const Node& nd = nodes_[node];
      if (nd.list == kNone) {
        if (nd.pending) {
          paths_.resize(leaf.path_at);
          return false;
        }
        leaf.kind = kExpand;
        leaf.num_legal = static_cast<int16_t>(R::LegalActions(s, legal));
        leaf.player = static_cast<int8_t>(R::CurrentPlayer(s));
        leaf.row = batch.Add<R>(s, leaf.player, legal, leaf.num_legal);
        if (!Exact(s, leaf, batch)) {
          leaf.value_row = leaf.row;
          leaf.value_player = leaf.player;
        }
        break;
      }
      if (node != 0) {
        const int n = R::LegalActions(s, buf_);
        if (n != nd.num || std::memcmp(buf_, actions_.At(nd.list), sizeof(int16_t) * n) != 0) {
          leaf.kind = kValue;  // another deal, past a round's end
          leaf.player = static_cast<int8_t>(R::CurrentPlayer(s));
          if (!Exact(s, leaf, batch)) {
            leaf.row = leaf.value_row = batch.Add<R>(s, leaf.player, buf_, n);
            leaf.value_player = leaf.player;
          }
          break;
        }
      }
      const int j = Select(node, R::CurrentPlayer(s));
      if (j < 0) {
        leaf.kind = kStored;
        for (int p = 0; p < players_; ++p) leaf.value[p] = static_cast<double>(nodes_[node].value[p]);
        break;
      }
      int32_t child = kids_.At(nodes_[node].list)[j];
      if (child < 0) {
        child = NewNode();  // nodes_ may move: no reference kept
        kids_.At(nodes_[node].list)[j] = child;
      }
      R::ApplyAction(s, actions_.At(nodes_[node].list)[j], nullptr);
      node = child;
      paths_.push_back(node);
    }
    leaf.node = node;
    leaf.path_len = static_cast<uint32_t>(paths_.size()) - leaf.path_at;
    return true;
  }

  const Root<R>& root_;
  const GuidedOptions& o_;
  uint64_t rng_;
  int64_t budget_, capacity_;
  int players_;
  int64_t done_ = 0;
  bool full_ = false;
  bool stopped_ = false;
  std::vector<Node> nodes_;
  Arena<int16_t> actions_;
  Arena<float> priors_;
  Arena<int32_t> kids_;
  std::vector<Leaf> leaves_;
  std::vector<int32_t> paths_;
  std::vector<int16_t> legal_;  // the expanding leaves' legal actions, one slot a leaf of the round
  std::vector<int16_t> end_legal_;  // the legal actions at an exact line's end (section 16.4)
  std::unique_ptr<RoundSolver<R>>* solver_ = nullptr;
  StopCheck solver_stop_;
  const std::atomic<bool>* halt_ = nullptr;
  int16_t buf_[R::kNumActions + kLegalScratch];
  double scratch_[R::kNumActions];
};

// Section 14: grows `trees` round by round until their budgets are spent, the deadline passes, `halt`
// is set or `stop` says stop (given on the calling thread only).
template <typename R>
void Grow(const std::vector<Tree<R>*>& trees, const Evaluator& e, Batch& batch, bool timed, Clock::time_point deadline,
          std::atomic<bool>& halt, StopCheck stop) {
  auto polled = Clock::now();
  for (;;) {
    if (halt.load(std::memory_order_relaxed)) return;
    batch.rows = 0;
    bool any = false;
    for (Tree<R>* t : trees) {
      if (!t->Active(timed)) continue;
      any = true;
      t->Collect(timed, batch);
    }
    if (!any) return;
    batch.Evaluate(e);
    for (Tree<R>* t : trees) t->Backup(batch);
    const auto now = timed || stop.poll ? Clock::now() : polled;
    if (timed && now >= deadline)
      for (Tree<R>* t : trees) t->Stop();
    if (stop.poll && now - polled >= std::chrono::milliseconds(kPollMillis)) {
      polled = now;
      if (stop()) {
        halt = true;
        return;
      }
    }
  }
}

template <typename R>
std::vector<SearchRow> Merged(const std::vector<const Tree<R>*>& trees, const std::vector<int32_t>& at, int player) {
  std::vector<SearchRow> rows;
  for (size_t t = 0; t < trees.size(); ++t) {
    if (at[t] < 0) continue;
    const Tree<R>& tree = *trees[t];
    tree.ForChildren(at[t], [&](int action, int32_t child) {
      const Node& n = tree.node(child);
      auto row = std::find_if(rows.begin(), rows.end(), [&](const SearchRow& r) { return r.action == action; });
      if (row == rows.end()) {
        rows.push_back({action, n.visits, 0.0 + n.totals[player]});
      } else {
        row->visits += n.visits;
        row->total += n.totals[player];
      }
    });
  }
  return rows;
}

// Section 15: a search's result from its trees.
template <typename R>
GuidedOutcome Outcome(const Root<R>& root, const std::vector<const Tree<R>*>& trees) {
  GuidedOutcome g;
  SearchOutcome& out = g.search;
  out.player = root.player;
  const int n = static_cast<int>(trees.size());
  std::vector<int32_t> at(n, 0);
  out.rows = Merged(trees, at, out.player);
  RankRows(out.rows);
  for (const Tree<R>* t : trees) {
    out.iterations += t->done();
    out.nodes += t->Nodes();
    out.full = out.full || t->full();
  }
  out.next_seed = trees[0]->rng();
  typename R::State walk = root.state;
  for (;;) {
    std::vector<SearchRow> rows = Merged(trees, at, R::CurrentPlayer(walk));
    if (rows.empty()) break;
    RankRows(rows);
    const int action = rows[0].action;
    out.pv.push_back(action);
    out.pv_moves.push_back(R::ActionToString(walk, action));
    const uint64_t before = walk.rng;
    R::ApplyAction(walk, action, nullptr);
    if (R::IsOver(walk) || R::IsChanceNode(walk) || walk.rng != before) break;
    for (int t = 0; t < n; ++t)
      if (at[t] >= 0) at[t] = trees[t]->Child(at[t], action);
  }
  for (const SearchRow& row : out.rows) {
    const auto it = std::find(root.legal.begin(), root.legal.end(), static_cast<int16_t>(row.action));
    g.priors.push_back(root.priors[it - root.legal.begin()]);
  }
  g.root_value = static_cast<float>(root.value[root.player]);
  return g;
}

}  // namespace

template <typename R>
std::vector<GuidedOutcome> GuidedSearch(const std::vector<typename R::State>& states, const std::vector<uint64_t>& seeds,
                                        const GuidedOptions& o, const Evaluator& e, StopCheck stop) {
  const auto start = Clock::now();
  const bool timed = o.seconds > 0;
  const auto deadline =
      timed ? start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds)) : start;
  const int searches = static_cast<int>(states.size());
  const int players = R::Players(states[0]);
  const int inputs = R::ObservationSize(players);

  // The roots, evaluated together (section 12, the setup).
  std::vector<Root<R>> roots(searches);
  Batch first;
  first.inputs = inputs;
  first.actions = R::kNumActions;
  first.players = players;
  first.masks_wanted = e.network == nullptr;
  first.Reserve(searches, e);
  int16_t legal[R::kNumActions + kLegalScratch];
  for (int i = 0; i < searches; ++i) {
    Root<R>& r = roots[i];
    r.state = states[i];
    r.seed = seeds[i];
    r.player = R::CurrentPlayer(r.state);
    r.players = players;
    r.exact = o.exact > 0 && R::MovesLeft(r.state) <= o.exact;
    const int n = R::LegalActions(r.state, legal);
    r.legal.assign(legal, legal + n);
    first.Add<R>(r.state, r.player, legal, n);
  }
  first.Evaluate(e);
  {
    std::vector<double> scratch(R::kNumActions);
    for (int i = 0; i < searches; ++i) {
      Root<R>& r = roots[i];
      r.priors.resize(r.legal.size());
      SoftmaxPriors(first.logits.data() + static_cast<size_t>(i) * R::kNumActions, r.legal.data(),
                    static_cast<int>(r.legal.size()), r.priors.data(), scratch.data());
      Absolute(first.values.data() + static_cast<size_t>(i) * players, r.player, players, r.value);
    }
  }

  // The trees, search by search (sections 5 and 7: each tree's budget and node limit).
  std::vector<std::unique_ptr<Tree<R>>> trees;
  const int per = o.trees;
  for (int i = 0; i < searches; ++i)
    for (int t = 0; t < per; ++t) {
      const int64_t budget = o.iterations / per + (t < o.iterations % per ? 1 : 0);
      trees.emplace_back(new Tree<R>(roots[i], o, t == 0 ? seeds[i] : TreeSeed(seeds[i], t), budget,
                                     o.max_nodes / per));
    }

  // Section 14: one group of trees a thread (the network), never more threads than the machine's cores (more
  // would only take turns on them, and keep the calling thread from seeing Ctrl-C), or every tree on the calling
  // thread.
  const int total = static_cast<int>(trees.size());
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int groups = e.network ? std::max(1, std::min({o.threads, total, cores})) : 1;
  std::vector<std::vector<Tree<R>*>> group(groups);
  for (int t = 0; t < total; ++t) group[static_cast<int64_t>(t) * groups / total].push_back(trees[t].get());
  std::vector<Batch> batches(groups);
  std::vector<std::unique_ptr<RoundSolver<R>>> solvers(groups);  // section 16.4: one a thread
  for (int g = 0; g < groups; ++g) {
    Batch& b = batches[g];
    b.inputs = inputs;
    b.actions = R::kNumActions;
    b.players = players;
    b.masks_wanted = e.network == nullptr;
    // A leaf takes two rows when the exact search values it at its line's end (section 16.4).
    b.Reserve(static_cast<int>(group[g].size()) * o.batch * (o.exact > 0 ? 2 : 1), e);
  }
  std::atomic<bool> halt{false};
  for (int g = 0; g < groups; ++g)
    for (Tree<R>* t : group[g]) t->SetSolver(&solvers[g], groups == 1 ? stop : StopCheck{}, &halt);
  std::vector<std::exception_ptr> failed(groups);
  auto run = [&](int g, StopCheck poll) {
    try {
      Grow<R>(group[g], e, batches[g], timed, deadline, halt, poll);
    } catch (const Interrupted&) {  // Ctrl-C seen by an exact search (section 16.4), or a Python evaluator's error
      halt = true;
    } catch (...) {
      failed[g] = std::current_exception();
      halt = true;
    }
  };
  // One group: on the calling thread.  Several: each on a thread of its own, the calling thread polling `stop`
  // while they start and run (RunThreads: a signal is seen however many threads share the cores).
  if (groups == 1)
    run(0, stop);
  else
    RunThreads(groups, [&](int g) { run(g, StopCheck{}); }, halt, stop);
  for (const std::exception_ptr& x : failed)
    if (x) std::rethrow_exception(x);
  if (halt.load()) throw Interrupted();

  std::vector<GuidedOutcome> out;
  out.reserve(searches);
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  for (int i = 0; i < searches; ++i) {
    std::vector<const Tree<R>*> mine;
    for (int t = 0; t < per; ++t) mine.push_back(trees[static_cast<size_t>(i) * per + t].get());
    out.push_back(Outcome(roots[i], mine));
    out.back().search.seconds = seconds;
  }
  return out;
}

template std::vector<GuidedOutcome> GuidedSearch<ClassicRules>(const std::vector<ClassicRules::State>&,
                                                               const std::vector<uint64_t>&, const GuidedOptions&,
                                                               const Evaluator&, StopCheck);
template std::vector<GuidedOutcome> GuidedSearch<PavilionRules>(const std::vector<PavilionRules::State>&,
                                                                const std::vector<uint64_t>&, const GuidedOptions&,
                                                                const Evaluator&, StopCheck);

}  // namespace azul
