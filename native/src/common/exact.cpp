// The exact search of the rest of a round (azul/common/exact.h), written once over the rules traits;
// the numbered steps are docs/search.md's section 16.  A solve recurses over copies of the position
// (a fixed-size struct) with its moves in a buffer on the stack, and its table is allocated when the
// solver is made: a search's solve allocates nothing.
// Pure-Python twin: python/azul_engine/_pure/exact.py.
#include "azul/common/exact.h"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "azul/common/rng.h"
#include "azul/variant.h"

namespace azul {
namespace {

constexpr int kInf = 1 << 20;  // beyond any value of a line (16.2)

// 16.1: `after`, one move after `before`, is past the exact search's horizon: the game is over, a
// chance node, another round, or tiles were drawn (the generator moved: a Summer Pavilion refill).
template <typename R>
bool RoundOver(const typename R::State& before, const typename R::State& after) {
  return after.rng != before.rng || after.round != before.round || R::IsOver(after) || R::IsChanceNode(after);
}

}  // namespace

ExactTable::ExactTable(int bits, bool lossless)
    : slots_(size_t{1} << bits), mask_((uint64_t{1} << bits) - 1), lossless_(lossless) {
  std::memset(slots_.data(), 0, sizeof(ExactEntry) * slots_.size());
}

const ExactEntry* ExactTable::Find(uint64_t key, uint64_t check) const {
  uint64_t i = key & mask_;
  if (!lossless_) {
    const ExactEntry& e = slots_[i];
    return e.flag != kEmptyEntry && e.key == key && e.check == check ? &e : nullptr;
  }
  for (;; i = (i + 1) & mask_) {  // linear probing; never full (Grow)
    const ExactEntry& e = slots_[i];
    if (e.flag == kEmptyEntry) return nullptr;
    if (e.key == key && e.check == check) return &e;
  }
}

void ExactTable::Store(const ExactEntry& e) {
  uint64_t i = e.key & mask_;
  if (lossless_) {
    while (slots_[i].flag != kEmptyEntry && (slots_[i].key != e.key || slots_[i].check != e.check))
      i = (i + 1) & mask_;
    if (slots_[i].flag == kEmptyEntry) ++used_;
  }
  slots_[i] = e;
  if (lossless_ && 2 * used_ > slots_.size()) Grow();
}

void ExactTable::Grow() {
  std::vector<ExactEntry> old(slots_.size() * 2);
  old.swap(slots_);
  std::memset(slots_.data(), 0, sizeof(ExactEntry) * slots_.size());
  mask_ = slots_.size() - 1;
  used_ = 0;
  for (const ExactEntry& e : old)
    if (e.flag != kEmptyEntry) Store(e);
}

template <typename R>
RoundSolver<R>::RoundSolver(int players, bool lossless, int64_t max_nodes, StopCheck stop,
                            const std::atomic<bool>* halt, int bits)
    : table_(lossless ? 12 : bits, lossless), players_(players), max_nodes_(max_nodes), stop_(stop),
      halt_(halt), polled_(std::chrono::steady_clock::now()) {
  line_.reserve(256);
}

template <typename R>
void RoundSolver<R>::Count() {
  ++nodes_;
  if (max_nodes_ > 0 && nodes_ > max_nodes_) throw NodeCap();
  if ((nodes_ & 1023) != 0) return;
  if (halt_ && halt_->load(std::memory_order_relaxed)) throw Interrupted();
  if (stop_.poll) {
    const auto now = std::chrono::steady_clock::now();
    if (now - polled_ >= std::chrono::milliseconds(kPollMillis)) {
      polled_ = now;
      if (stop_()) throw Interrupted();
    }
  }
}

// 16.3, two players: the value of `s` for its player to move (points gained to the round's end less the
// other's), exact when strictly between alpha and beta, else a bound on that side; its entry stored, its
// best move (or the entry's) into `move`.
template <typename R>
int RoundSolver<R>::Negamax(const State& s, int alpha, int beta, int16_t* move) {
  uint64_t check;
  const uint64_t key = R::Key(s, &check);
  int hint = -1;
  if (const ExactEntry* e = table_.Find(key, check)) {
    const int v = e->value[0];
    if (e->flag == kExactValue || (e->flag == kLowerBound && v >= beta) || (e->flag == kUpperBound && v <= alpha)) {
      *move = e->move;
      return v;
    }
    hint = e->move;
  }
  Count();
  int16_t moves[R::kNumActions + kLegalScratch];
  const int n = Moves(s, moves);
  if (hint >= 0) {  // the entry's move first, the others ascending
    const int16_t* at = std::find(moves, moves + n, static_cast<int16_t>(hint));
    if (at != moves + n) {
      const int i = static_cast<int>(at - moves);
      std::memmove(moves + 1, moves, sizeof(int16_t) * i);
      moves[0] = static_cast<int16_t>(hint);
    }
  }
  const int p = R::CurrentPlayer(s), q = 1 - p;
  const int sp = R::Score(s, p), sq = R::Score(s, q);
  int best_v = 0, best_m = -1;
  int16_t ignored;
  for (int i = 0; i < n; ++i) {
    const int m = moves[i];
    State c = s;
    R::ApplyAction(c, m, nullptr);
    const int d = (R::Score(c, p) - sp) - (R::Score(c, q) - sq);
    // An earlier move must be matched, a later one beaten (ties: the lowest id).
    const int lo = best_m < 0 ? alpha : std::max(alpha, m < best_m ? best_v - 1 : best_v);
    int v;
    if (RoundOver<R>(s, c))
      v = d;
    else if (R::CurrentPlayer(c) == p)
      v = d + Negamax(c, lo - d, beta - d, &ignored);
    else
      v = d - Negamax(c, d - beta, d - lo, &ignored);
    if (best_m < 0 || v > best_v || (v == best_v && m < best_m)) {
      best_v = v;
      best_m = m;
      if (best_v >= beta) break;
    }
  }
  ExactEntry e;
  std::memset(&e, 0, sizeof e);
  e.key = key;
  e.check = check;
  e.value[0] = best_v;
  e.move = static_cast<int16_t>(best_m);
  e.flag = best_v <= alpha ? kUpperBound : best_v >= beta ? kLowerBound : kExactValue;
  table_.Store(e);
  *move = static_cast<int16_t>(best_m);
  return best_v;
}

// 16.3, three and four players: every player's gains along the best line from `s` (max^n: the player to
// move takes the move of greatest n * gain - sum of gains for itself; ties: the lowest id).
template <typename R>
void RoundSolver<R>::MaxN(const State& s, int32_t* gains, int16_t* move) {
  uint64_t check;
  const uint64_t key = R::Key(s, &check);
  const int n = players_;
  if (const ExactEntry* e = table_.Find(key, check)) {
    for (int i = 0; i < n; ++i) gains[i] = e->value[i];
    *move = e->move;
    return;
  }
  Count();
  int16_t moves[R::kNumActions + kLegalScratch];
  const int count = Moves(s, moves);
  const int p = R::CurrentPlayer(s);
  int32_t before[kMaxPlayers], best[kMaxPlayers] = {}, sub[kMaxPlayers];
  for (int i = 0; i < n; ++i) before[i] = R::Score(s, i);
  int best_u = 0, best_m = -1;
  int16_t ignored;
  for (int j = 0; j < count; ++j) {
    const int m = moves[j];
    State c = s;
    R::ApplyAction(c, m, nullptr);
    int32_t g[kMaxPlayers];
    const bool over = RoundOver<R>(s, c);
    if (!over) MaxN(c, sub, &ignored);
    int sum = 0;
    for (int i = 0; i < n; ++i) {
      g[i] = R::Score(c, i) - before[i] + (over ? 0 : sub[i]);
      sum += g[i];
    }
    const int u = n * g[p] - sum;
    if (best_m < 0 || u > best_u) {
      std::memcpy(best, g, sizeof best);
      best_u = u;
      best_m = m;
    }
  }
  ExactEntry e;
  std::memset(&e, 0, sizeof e);
  e.key = key;
  e.check = check;
  for (int i = 0; i < n; ++i) e.value[i] = best[i];
  e.move = static_cast<int16_t>(best_m);
  e.flag = kExactValue;
  table_.Store(e);
  for (int i = 0; i < n; ++i) gains[i] = best[i];
  *move = static_cast<int16_t>(best_m);
}

// The best move of `s` (16.3), `s` solved first.
template <typename R>
int RoundSolver<R>::Best(const State& s) {
  int16_t move = -1;
  if (players_ == 2) {
    Negamax(s, -kInf, kInf, &move);
  } else {
    int32_t gains[kMaxPlayers];
    MaxN(s, gains, &move);
  }
  return move;
}

template <typename R>
void RoundSolver<R>::Line(const State& start, State* end) {
  line_.clear();
  State s = start;
  for (;;) {
    const int m = Best(s);
    line_.push_back(static_cast<int16_t>(m));
    State c = s;
    R::ApplyAction(c, m, nullptr);
    if (RoundOver<R>(s, c)) {
      if (end) *end = c;
      return;
    }
    s = c;
  }
}

template <typename R>
void RoundSolver<R>::PlayLine(State& s, uint64_t& rng) {
  Line(s);
  for (const int16_t action : line_) {
    int a = action;
    if (R::IsPass(a)) {  // the passes after it keep as many tiles (KeepSets' order: by size)
      int16_t legal[R::kNumActions + kLegalScratch];
      const int n = R::LegalActions(s, legal);
      const int i = static_cast<int>(std::find(legal, legal + n, action) - legal);
      a = legal[i + Below(rng, n - i)];
    }
    R::ApplyAction(s, a, nullptr);
  }
}

template <typename R>
RoundOutcome SolveRound(const typename R::State& state, int64_t max_nodes, StopCheck stop) {
  using State = typename R::State;
  const auto start = std::chrono::steady_clock::now();
  const int n = R::Players(state);
  RoundSolver<R> solver(n, true, max_nodes, stop);
  RoundOutcome out;
  out.player = R::CurrentPlayer(state);
  const int p = out.player;
  int16_t moves[R::kNumActions + kLegalScratch];
  const int count = RoundSolver<R>::Moves(state, moves);
  std::vector<int> utility;
  for (int j = 0; j < count; ++j) {
    State c = state, end = state;
    R::ApplyAction(c, moves[j], nullptr);
    if (RoundOver<R>(state, c))
      end = c;
    else
      solver.Line(c, &end);
    RoundRow row;
    row.action = moves[j];
    std::memset(row.gains, 0, sizeof row.gains);
    int sum = 0;
    for (int i = 0; i < n; ++i) {
      row.gains[i] = R::Score(end, i) - R::Score(state, i);
      sum += row.gains[i];
    }
    const int u = n * row.gains[p] - sum;
    row.value = static_cast<double>(u) / static_cast<double>(n - 1);
    out.rows.push_back(row);
    utility.push_back(u);
  }
  std::vector<int> order(count);
  for (int j = 0; j < count; ++j) order[j] = j;
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    if (utility[a] != utility[b]) return utility[a] > utility[b];
    return out.rows[a].action < out.rows[b].action;
  });
  std::vector<RoundRow> rows;
  for (int j : order) rows.push_back(out.rows[j]);
  out.rows.swap(rows);

  const int first = out.rows[0].action;
  State c = state, end = state;
  R::ApplyAction(c, first, nullptr);
  out.pv.push_back(first);
  if (RoundOver<R>(state, c)) {
    end = c;
  } else {
    solver.Line(c, &end);
    for (const int16_t a : solver.line()) out.pv.push_back(a);
  }
  State walk = state;
  for (const int a : out.pv) {
    out.pv_moves.push_back(R::ActionToString(walk, a));
    R::ApplyAction(walk, a, nullptr);
  }
  out.end = R::IsOver(end) ? "game" : end.round != state.round ? "round" : "refill";
  out.nodes = solver.nodes();
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

template class RoundSolver<ClassicRules>;
template class RoundSolver<PavilionRules>;
template RoundOutcome SolveRound<ClassicRules>(const ClassicRules::State&, int64_t, StopCheck);
template RoundOutcome SolveRound<PavilionRules>(const PavilionRules::State&, int64_t, StopCheck);

}  // namespace azul
