// Monte Carlo tree search (azul/common/search.h), written once over the rules traits; the numbered
// steps are docs/search.md's.  The pure-Python twin: python/azul_engine/_pure/search.py.
//
// A tree is a vector of 64-byte nodes addressed by index (reserved from the budget up front), and
// two arenas in blocks of 64 Ki entries for the lists of the nodes visited a second time: their
// legal actions and untried slots (int16) and their children by slot (int32).  An iteration copies
// the root (a fixed-size struct), walks down with a fixed buffer for the legal actions and plays its
// rollouts in the playout kernels on this thread: nothing is allocated per iteration.
// Pure-Python twin: python/azul_engine/_pure/search.py.
#include "azul/common/search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
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
constexpr int kMaxRollouts = 1024;  // per iteration (the bindings check it)

struct Node {
  double totals[kMaxPlayers];  // each player's utility summed over the iterations through it
  int32_t visits;
  uint32_t list;   // `legal` then `untried` (slots of `legal`) in the action arena; kNone until set
  uint32_t slots;  // children by slot of `legal` in the child arena (-1: none yet)
  uint32_t full;   // a pruned node's full legal list in the action arena, else kNone
  int32_t extra;   // first child for an action outside `legal` (another deal), or -1
  int32_t next;    // the next such child of the same parent, or -1
  int16_t num_legal;
  int16_t num_untried;
  int16_t num_full;
  int16_t action;  // the action from the parent
};
static_assert(sizeof(Node) == 64, "a node is one cache line");

// The `k` actions of `here` (n of them, k < n) of smallest key (-greedy value, a draw from `rng`,
// the action): the greedy bot's best, ties in random order (docs/search.md section 2.2); the draws
// are made in `here` order, one an action.
template <typename R>
void GreedyTop(const typename R::State& s, const int16_t* here, int n, int k, uint64_t& rng, int16_t* out) {
  struct Key {
    int value;
    uint64_t draw;
    int16_t action;
  };
  Key keys[R::kNumActions];
  const int player = R::CurrentPlayer(s);
  for (int j = 0; j < n; ++j) keys[j] = {-R::GreedyValue(s, here[j], player), SplitMixNext(rng), here[j]};
  std::partial_sort(keys, keys + k, keys + n, [](const Key& a, const Key& b) {
    if (a.value != b.value) return a.value < b.value;
    if (a.draw != b.draw) return a.draw < b.draw;
    return a.action < b.action;
  });
  for (int j = 0; j < k; ++j) out[j] = keys[j].action;
}

// Section 16.4: `list` (n actions) with `best` first, then the others in their order, cut at n: into `out`.
void ExactFirst(const int16_t* list, int n, int best, int16_t* out) {
  out[0] = static_cast<int16_t>(best);
  for (int i = 0, j = 1; i < n && j < n; ++i)
    if (list[i] != best) out[j++] = list[i];
}

// What every tree of a search shares: the root, its actions when pruned, the options.
template <typename R>
struct Shared {
  typename R::State root;
  const SearchOptions* options;
  bool pruned;
  std::vector<int16_t> root_legal;    // the root's legal actions, ascending
  std::vector<int16_t> root_actions;  // the pruned root's actions: every legal action, in key order
  Clock::time_point deadline;
  std::atomic<bool> halt{false};
};

template <typename R>
class Tree {
 public:
  using State = typename R::State;

  // `solver`: the exact search of the thread that grows this tree (section 16.4), made at its first use,
  // polling `stop` (the calling thread's) and the search's halt flag.
  Tree(Shared<R>& shared, uint64_t seed, int64_t capacity, int64_t reserve,
       std::unique_ptr<RoundSolver<R>>* solver, StopCheck stop)
      : shared_(shared), o_(*shared.options), rng_(seed), capacity_(capacity),
        players_(R::Players(shared.root)), solver_(solver), solver_stop_(stop) {
    nodes_.reserve(static_cast<size_t>(std::max<int64_t>(1, std::min(reserve, capacity))));
    path_.reserve(512);
    std::fill(child_of_, child_of_ + R::kNumActions, -1);
    NewNode(-1);
    const int n = static_cast<int>(shared.root_legal.size());
    if (shared.pruned) {
      SetLists(0, shared.root_actions.data(), o_.candidates, shared.root_legal.data(), n);
      widen_at_ = o_.widen;
    } else {
      SetLists(0, shared.root_legal.data(), n, nullptr, n);
    }
  }

  // One iteration (section 3).
  void Iterate() {
    if (widen_at_ > 0 && nodes_[0].visits >= widen_at_) Widen();  // section 2.4
    State s = shared_.root;
    s.rng = SplitMixNext(rng_);  // 1
    int32_t node = 0;
    path_.clear();
    path_.push_back(0);
    while (!R::IsOver(s)) {  // 2
      if (R::IsChanceNode(s)) {  // 2.1
        Draw(s);
        continue;
      }
      const int16_t* here;  // 2.2
      int n;
      if (node == 0) {  // the root's position is the same in every copy
        here = Full(nodes_[0]);
        n = NumFull(nodes_[0]);
      } else {
        n = R::LegalActions(s, buf_);
        here = buf_;
        if (nodes_[node].list == kNone) SetList(node, s, here, n);
      }
      Node& nd = nodes_[node];
      const int16_t* legal = Legal(nd);
      const bool same = node == 0 || (n == NumFull(nd) && std::memcmp(here, Full(nd), sizeof(int16_t) * n) == 0);
      if (same) {  // 2.3: expand from `untried`, select among `legal`
        here = legal;
        n = nd.num_legal;
      }
      int action = -1, slot = -1;
      if (same) {
        if (nd.num_untried && Full()) break;  // 2.4
        int16_t* untried = Untried(nd);
        int32_t* kids = Kids(nd);
        while (nd.num_untried) {
          const int i = Below(rng_, nd.num_untried);
          const int k = untried[i];
          untried[i] = untried[--nd.num_untried];
          if (kids[k] < 0) {
            action = legal[k];
            slot = k;
            break;
          }
        }
      } else {  // another deal: the node's children by action, in a table cleared again below
        Index(node, true);
        int m = 0;
        for (int j = 0; j < n; ++j)
          if (child_of_[here[j]] < 0) other_[m++] = here[j];
        if (m && Full()) {
          Index(node, false);
          break;
        }
        if (m) {
          Index(node, false);
          action = other_[Below(rng_, m)];
          slot = SlotOf(node, action);
        }
      }
      if (action >= 0) {
        const int32_t child = NewNode(action);  // nodes_ may move: no reference kept
        Node& parent = nodes_[node];
        if (slot >= 0) {
          Kids(parent)[slot] = child;
        } else {
          nodes_[child].next = parent.extra;
          parent.extra = child;
        }
        R::ApplyAction(s, action, nullptr);
        path_.push_back(child);
        break;
      }
      // 2.5: select by UCB1.
      const int p = R::CurrentPlayer(s);
      const double log_n = std::log(static_cast<double>(nd.visits));
      const int32_t* kids = same ? Kids(nd) : nullptr;
      int best = -1;
      int32_t best_child = -1;
      double best_value = 0;
      for (int j = 0; j < n; ++j) {
        const int32_t ch = same ? kids[j] : child_of_[here[j]];
        const Node& cn = nodes_[ch];
        const double visits = static_cast<double>(cn.visits);
        const double value = cn.totals[p] / visits + o_.c * std::sqrt(log_n / visits);
        if (best_child < 0 || value > best_value) {
          best = here[j];
          best_child = ch;
          best_value = value;
        }
      }
      if (!same) Index(node, false);
      R::ApplyAction(s, best, nullptr);
      node = best_child;
      path_.push_back(node);
    }
    if (!R::IsOver(s) && !R::IsChanceNode(s) && Gated(s)) {
      // Section 16.4: the round's best line, found exactly, then the rollouts from its end.
      Solver().PlayLine(s, rng_);
    }
    double u[kMaxPlayers] = {};
    if (R::IsOver(s)) {  // 3
      int32_t scores[kMaxPlayers];
      int winners[kMaxPlayers];
      for (int p = 0; p < players_; ++p) scores[p] = R::Score(s, p);
      const int count = FinalWinners<R>(s, winners);
      AddUtility(scores, players_, winners, count, o_.margin, 1.0, u);
    } else {
      const int k = o_.rollouts;
      R::PlayoutsFrom(s, k, SplitMixNext(rng_), 1, rollout_scores_, {}, o_.policy);
      for (int r = 0; r < k; ++r) {
        const int32_t* scores = rollout_scores_ + r * players_;
        int32_t top = scores[0];
        for (int p = 1; p < players_; ++p) top = std::max(top, scores[p]);
        int winners[kMaxPlayers], count = 0;
        for (int p = 0; p < players_; ++p)
          if (scores[p] == top) winners[count++] = p;
        AddUtility(scores, players_, winners, count, o_.margin, static_cast<double>(k), u);
      }
    }
    for (const int32_t id : path_) {  // 4
      Node& x = nodes_[id];
      ++x.visits;
      for (int p = 0; p < players_; ++p) x.totals[p] += u[p];
    }
  }

  // The child of `node` for `action`, or -1.
  int32_t Child(int32_t node, int action) {
    const int slot = SlotOf(node, action);
    if (slot >= 0) return Kids(nodes_[node])[slot];
    for (int32_t ch = nodes_[node].extra; ch >= 0; ch = nodes_[ch].next)
      if (nodes_[ch].action == action) return ch;
    return -1;
  }

  // Sets child_of_[action] for every child of `node` (set), or back to -1 (clear).
  void Index(int32_t node, bool set) {
    ForChildren(node, [&](int action, int32_t child) { child_of_[action] = set ? child : -1; });
  }

  // Calls f(action, child) for every child of `node`.
  template <typename F>
  void ForChildren(int32_t node, F f) {
    const Node& nd = nodes_[node];
    if (nd.list != kNone) {
      const int16_t* legal = Legal(nodes_[node]);
      const int32_t* kids = Kids(nodes_[node]);
      for (int j = 0; j < nd.num_legal; ++j)
        if (kids[j] >= 0) f(legal[j], kids[j]);
    }
    for (int32_t ch = nd.extra; ch >= 0; ch = nodes_[ch].next) f(nodes_[ch].action, ch);
  }

  // Section 2.4: the pruned root takes its next move in key order (lists taken anew with room for it:
  // at most a few times a search, never an iteration's cost).
  void Widen() {
    Node& root = nodes_[0];
    const int k = root.num_legal, u = root.num_untried;
    const uint32_t list = actions_.Take(2 * static_cast<uint32_t>(k + 1));
    const uint32_t slots = kids_.Take(static_cast<uint32_t>(k + 1));
    int16_t* a = actions_.At(list);
    int32_t* kids = kids_.At(slots);
    std::memcpy(a, Legal(root), sizeof(int16_t) * k);
    a[k] = shared_.root_actions[k];
    std::memcpy(a + k + 1, Untried(root), sizeof(int16_t) * u);
    a[k + 1 + u] = static_cast<int16_t>(k);
    std::memcpy(kids, Kids(root), sizeof(int32_t) * k);
    kids[k] = -1;
    root.list = list;
    root.slots = slots;
    root.num_legal = static_cast<int16_t>(k + 1);
    root.num_untried = static_cast<int16_t>(u + 1);
    const bool more = k + 1 < static_cast<int>(shared_.root_actions.size());
    widen_at_ = !more ? 0 : widen_at_ > INT64_MAX / 2 ? INT64_MAX : widen_at_ * 2;
  }

  const Node& node(int32_t i) const { return nodes_[i]; }
  int64_t Nodes() const { return static_cast<int64_t>(nodes_.size()); }
  bool full() const { return full_; }
  uint64_t rng() const { return rng_; }

 private:
  // Section 16.1: the exact search applies at `s` (a decision node, or a leaf not over): the root's gate is
  // open (exact > 0 once checked), `s` is in the root's round and has at most `exact` moves left.
  bool Gated(const State& s) const {
    return o_.exact > 0 && s.round == shared_.root.round && R::MovesLeft(s) <= o_.exact;
  }

  RoundSolver<R>& Solver() {
    if (!*solver_) solver_->reset(new RoundSolver<R>(players_, false, 0, solver_stop_, &shared_.halt));
    return **solver_;
  }

  int16_t* Legal(Node& nd) { return actions_.At(nd.list); }
  // The node's full legal list (its deal's): `legal` itself unless that is pruned.
  int16_t* Full(Node& nd) { return nd.full == kNone ? Legal(nd) : actions_.At(nd.full); }
  int NumFull(const Node& nd) const { return nd.full == kNone ? nd.num_legal : nd.num_full; }
  int16_t* Untried(Node& nd) { return actions_.At(nd.list) + nd.num_legal; }
  int32_t* Kids(Node& nd) { return kids_.At(nd.slots); }

  bool Full() {
    if (Nodes() < capacity_) return false;
    full_ = true;
    return true;
  }

  int32_t NewNode(int action) {
    Node nd;
    std::memset(&nd, 0, sizeof nd);
    nd.list = nd.slots = nd.full = kNone;
    nd.extra = nd.next = -1;
    nd.action = static_cast<int16_t>(action);
    nodes_.push_back(nd);
    return static_cast<int32_t>(nodes_.size() - 1);
  }

  // Step 2.2 at a node's first visit as an inner node: its legal actions `here`, or with
  // inner_candidates K < n the K the greedy bot rates best (in the position at hand, tie-breaks
  // drawn from the tree's generator in `here` order), keeping `here` to recognise the deal.
  void SetList(int32_t node, const State& s, const int16_t* here, int n) {
    const int k = o_.inner_candidates;
    if (0 < k && k < n) {
      int16_t top[R::kNumActions];
      GreedyTop<R>(s, here, n, k, rng_, top);
      if (Gated(s)) {  // section 16.4: the exact search's best move first
        int16_t first[R::kNumActions];
        ExactFirst(top, k, Solver().Best(s), first);
        SetLists(node, first, k, here, n);
        return;
      }
      SetLists(node, top, k, here, n);
    } else {
      SetLists(node, here, n, nullptr, n);
    }
  }

  // Sets a node's `legal` (n), its `untried` (slots 0..n-1) and empty child slots, and (when not
  // null, its legal actions being pruned) the full legal list `all` (m).
  void SetLists(int32_t node, const int16_t* legal, int n, const int16_t* all, int m) {
    const uint32_t list = actions_.Take(2 * static_cast<uint32_t>(n));
    const uint32_t slots = kids_.Take(static_cast<uint32_t>(n));
    int16_t* a = actions_.At(list);
    int32_t* k = kids_.At(slots);
    for (int j = 0; j < n; ++j) {
      a[j] = legal[j];
      a[n + j] = static_cast<int16_t>(j);
      k[j] = -1;
    }
    Node& nd = nodes_[node];
    nd.list = list;
    nd.slots = slots;
    nd.num_legal = nd.num_untried = static_cast<int16_t>(n);
    if (all) {
      const uint32_t full = actions_.Take(static_cast<uint32_t>(m));
      std::memcpy(actions_.At(full), all, sizeof(int16_t) * m);
      Node& again = nodes_[node];
      again.full = full;
      again.num_full = static_cast<int16_t>(m);
    }
  }

  // The slot of `action` in the node's `legal`, or -1.  Unpruned lists are ascending.
  int SlotOf(int32_t node, int action) {
    Node& nd = nodes_[node];
    if (nd.list == kNone) return -1;
    const int16_t* legal = Legal(nd);
    if (nd.full != kNone) {  // a pruned list, in key order
      for (int j = 0; j < nd.num_legal; ++j)
        if (legal[j] == action) return j;
      return -1;
    }
    const int16_t* at = std::lower_bound(legal, legal + nd.num_legal, static_cast<int16_t>(action));
    return at != legal + nd.num_legal && *at == action ? static_cast<int>(at - legal) : -1;
  }

  // Step 2.1: a chance outcome drawn from the tree's generator.
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

  Shared<R>& shared_;
  const SearchOptions& o_;
  uint64_t rng_;
  int64_t capacity_;
  int players_;
  std::unique_ptr<RoundSolver<R>>* solver_;
  StopCheck solver_stop_;
  bool full_ = false;
  int64_t widen_at_ = 0;  // the root's visits at which it takes its next move; 0: never
  std::vector<Node> nodes_;
  Arena<int16_t> actions_;
  Arena<int32_t> kids_;
  std::vector<int32_t> path_;
  int16_t buf_[R::kNumActions + kLegalScratch];
  int16_t other_[R::kNumActions];
  int32_t child_of_[R::kNumActions];  // Index(): -1 but while a node's children are indexed
  int32_t rollout_scores_[kMaxRollouts * kMaxPlayers];
};

// The children of one node in each tree (-1 where a tree lacks it), merged by action: visits and
// totals for `player` summed in tree order.
template <typename R>
std::vector<SearchRow> Merged(std::vector<std::unique_ptr<Tree<R>>>& trees, const std::vector<int32_t>& at,
                              int player) {
  std::vector<SearchRow> rows;
  for (size_t t = 0; t < trees.size(); ++t) {
    if (at[t] < 0) continue;
    Tree<R>& tree = *trees[t];
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

}  // namespace

// Most visited first; ties: the greater mean, then the lower id.
void RankRows(std::vector<SearchRow>& rows) {
  std::sort(rows.begin(), rows.end(), [](const SearchRow& a, const SearchRow& b) {
    if (a.visits != b.visits) return a.visits > b.visits;
    const double ma = a.total / static_cast<double>(a.visits), mb = b.total / static_cast<double>(b.visits);
    if (ma != mb) return ma > mb;
    return a.action < b.action;
  });
}

uint64_t TreeSeed(uint64_t seed, int t) { return SplitMixOutput(seed ^ kTreeSalt, static_cast<uint64_t>(t)); }

template <typename R>
SearchOutcome Search(const typename R::State& root, const SearchOptions& options, StopCheck stop) {
  const auto start = Clock::now();
  SearchOptions o = options;
  if (o.exact > 0 && R::MovesLeft(root) > o.exact) o.exact = 0;  // section 16.1: the root's round near its end
  Shared<R> shared;
  shared.root = root;
  shared.options = &o;
  int16_t legal[R::kNumActions + kLegalScratch];
  const int n = R::LegalActions(root, legal);
  shared.root_legal.assign(legal, legal + n);
  uint64_t rng0 = o.seed;
  shared.pruned = 0 < o.candidates && o.candidates < n;
  if (shared.pruned) {  // 2.2: every legal action in key order (the same draws as for the first `candidates`)
    shared.root_actions.resize(n);
    GreedyTop<R>(root, legal, n, n, rng0, shared.root_actions.data());
  }
  const bool timed = o.seconds > 0;
  if (timed)
    shared.deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o.seconds));

  const int threads = o.threads;
  const int64_t capacity = o.max_nodes / threads;
  std::vector<int64_t> budget(threads);
  for (int t = 0; t < threads; ++t) budget[t] = o.iterations / threads + (t < o.iterations % threads ? 1 : 0);
  std::vector<int64_t> done(threads, 0);
  // The threads that grow them: one a tree, but never more than the machine's cores (more would only take
  // turns on them, and keep the calling thread from seeing Ctrl-C); trees first to last in `workers` runs.
  const int workers = std::min(threads, static_cast<int>(std::max(1u, std::thread::hardware_concurrency())));
  std::vector<std::exception_ptr> failed(workers);
  auto first_tree = [&](int w) { return static_cast<int>(static_cast<int64_t>(w) * threads / workers); };
  // Section 16.4: one exact search a thread, shared by its trees (what it finds does not depend on its table).
  std::vector<std::unique_ptr<RoundSolver<R>>> solvers(workers);
  if (shared.pruned && o.exact > 0) {  // 16.4: the pruned root's first move is the exact search's best
    solvers[0].reset(new RoundSolver<R>(R::Players(root), false, 0, stop, &shared.halt));
    std::vector<int16_t> order(n);
    ExactFirst(shared.root_actions.data(), n, solvers[0]->Best(root), order.data());
    shared.root_actions.swap(order);
    if (workers > 1) solvers[0]->SetStop(StopCheck{});  // worker 0 is not the calling thread
  }
  std::vector<std::unique_ptr<Tree<R>>> trees;
  for (int t = 0, w = 0; t < threads; ++t) {
    while (first_tree(w + 1) <= t) ++w;
    trees.emplace_back(new Tree<R>(shared, t == 0 ? rng0 : TreeSeed(o.seed, t), capacity,
                                   timed ? int64_t{1} << 12 : budget[t] + 1, &solvers[w],
                                   workers == 1 ? stop : StopCheck{}));
  }

  // Grows trees [first, last) one iteration each in turn until their budgets are spent (or the deadline
  // has passed and each has made one), polling `poll` (on the calling thread only).  Each tree's iterations
  // do not depend on the others', so a tree grows the same whichever thread grows it, and beside whichever
  // other trees.
  auto grow = [&](int w, int first, int last, StopCheck poll) {
    try {
      auto polled = Clock::now();
      bool late = false;
      for (bool any = true; any;) {
        any = false;
        for (int t = first; t < last; ++t) {
          if (timed ? (late && done[t] > 0) : done[t] >= budget[t]) continue;
          if (shared.halt.load(std::memory_order_relaxed)) return;
          try {
            trees[t]->Iterate();
          } catch (const Interrupted&) {  // an exact search saw Ctrl-C (section 16.4)
            shared.halt = true;
            return;
          }
          ++done[t];
          any = true;
          if (timed || poll.poll) {
            const auto now = Clock::now();
            if (timed && now >= shared.deadline) late = true;
            if (poll.poll && now - polled >= std::chrono::milliseconds(kPollMillis)) {
              polled = now;
              if (poll()) {
                shared.halt = true;
                return;
              }
            }
          }
        }
      }
    } catch (...) {
      failed[w] = std::current_exception();
      shared.halt = true;
    }
  };

  // One thread: the calling one.  Several: each on a thread of its own, the calling thread polling `stop` while
  // they start and run (RunThreads).
  if (workers == 1)
    grow(0, 0, threads, stop);
  else
    RunThreads(workers, [&](int w) { grow(w, first_tree(w), first_tree(w + 1), StopCheck{}); }, shared.halt, stop);
  for (const std::exception_ptr& e : failed)
    if (e) std::rethrow_exception(e);
  if (shared.halt.load()) throw Interrupted();

  SearchOutcome out;
  out.player = R::CurrentPlayer(root);
  std::vector<int32_t> at(threads, 0);
  out.rows = Merged(trees, at, out.player);
  RankRows(out.rows);
  for (int t = 0; t < threads; ++t) {
    out.iterations += done[t];
    out.nodes += trees[t]->Nodes();
    out.full = out.full || trees[t]->full();
  }
  out.next_seed = trees[0]->rng();

  // Section 6: the principal variation, up to the first move after which tiles are drawn.
  typename R::State walk = root;
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
    for (int t = 0; t < threads; ++t)
      if (at[t] >= 0) at[t] = trees[t]->Child(at[t], action);
  }
  out.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return out;
}

template SearchOutcome Search<ClassicRules>(const ClassicRules::State&, const SearchOptions&, StopCheck);
template SearchOutcome Search<PavilionRules>(const PavilionRules::State&, const SearchOptions&, StopCheck);

}  // namespace azul
