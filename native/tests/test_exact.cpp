// The exact search of a round's end (azul/common/exact.h), without Python: solve_round's values and best
// line are those of a plain max^n over the rest of the round (no table, no pruning); the line found from a
// position does not depend on what the table holds (a table of 16 slots, shared by many solves in a
// shuffled order, finds the lines a fresh table finds); the node cap stops a solve.  (Python's
// tests/test_exact.py checks the two engines against each other.)
#include <algorithm>
#include <cstdint>
#include <vector>

#include "azul/common/exact.h"
#include "azul/common/rng.h"
#include "azul/variant.h"
#include "check.h"

using namespace azul;

namespace {

template <typename R>
bool PastHorizon(const typename R::State& before, const typename R::State& after) {
  return R::IsOver(after) || R::IsChanceNode(after) || after.round != before.round || after.rng != before.rng;
}

// Max^n without a table: every player's gains along the best line from `s`, the line into `line`.
template <typename R>
std::vector<int> Plain(const typename R::State& s, std::vector<int>* line) {
  const int n = R::Players(s), p = R::CurrentPlayer(s);
  int16_t moves[R::kNumActions + kLegalScratch];
  const int count = R::ExactMoves(s, moves);
  std::vector<int> best;
  std::vector<int> best_line;
  int best_u = 0;
  for (int j = 0; j < count; ++j) {
    typename R::State c = s;
    R::ApplyAction(c, moves[j], nullptr);
    std::vector<int> g(n), rest;
    std::vector<int> sub_line;
    if (!PastHorizon<R>(s, c)) rest = Plain<R>(c, &sub_line);
    int sum = 0;
    for (int i = 0; i < n; ++i) {
      g[i] = R::Score(c, i) - R::Score(s, i) + (rest.empty() ? 0 : rest[i]);
      sum += g[i];
    }
    const int u = n * g[p] - sum;
    if (best.empty() || u > best_u) {
      best = g;
      best_u = u;
      best_line.assign(1, moves[j]);
      best_line.insert(best_line.end(), sub_line.begin(), sub_line.end());
    }
  }
  *line = best_line;
  return best;
}

// Decision positions of random games with at most `most` moves left in their round (round 2 on).
template <typename R>
std::vector<typename R::State> NearTheEnd(Variant variant, int players, int most, int count) {
  std::vector<typename R::State> out;
  uint64_t rng = 99;
  for (uint64_t seed = 1; static_cast<int>(out.size()) < count && seed < 500; ++seed) {
    typename R::State s = R::NewGame(players, variant, seed, false, nullptr);
    while (!R::IsOver(s)) {
      if (s.round > 1 && R::MovesLeft(s) <= most) {
        out.push_back(s);
        break;
      }
      int16_t legal[R::kNumActions + kLegalScratch];
      const int n = R::LegalActions(s, legal);
      R::ApplyAction(s, legal[Below(rng, n)], nullptr);
    }
  }
  return out;
}

template <typename R>
void SolveRoundIsPlainMaxN(Variant variant, int players) {
  for (const auto& s : NearTheEnd<R>(variant, players, 3, 6)) {
    const RoundOutcome out = SolveRound<R>(s, 1000000);
    std::vector<int> line;
    Plain<R>(s, &line);
    CHECK_EQ(out.pv.size(), line.size());
    CHECK(std::equal(line.begin(), line.end(), out.pv.begin()));
    for (const RoundRow& row : out.rows) {
      typename R::State c = s;
      R::ApplyAction(c, row.action, nullptr);
      std::vector<int> rest, ignored;
      if (!PastHorizon<R>(s, c)) rest = Plain<R>(c, &ignored);
      for (int i = 0; i < players; ++i)
        CHECK_EQ(row.gains[i], R::Score(c, i) - R::Score(s, i) + (rest.empty() ? 0 : rest[i]));
    }
  }
}

// Every position of the rest of the round below `s` (up to `limit`).
template <typename R>
void Descendants(const typename R::State& s, std::vector<typename R::State>& out, size_t limit) {
  if (out.size() >= limit) return;
  out.push_back(s);
  int16_t moves[R::kNumActions + kLegalScratch];
  const int n = R::LegalActions(s, moves);
  for (int j = 0; j < n; ++j) {
    typename R::State c = s;
    R::ApplyAction(c, moves[j], nullptr);
    if (!PastHorizon<R>(s, c)) Descendants<R>(c, out, limit);
  }
}

template <typename R>
void TheTableChangesNoLine(Variant variant, int players) {
  for (const auto& root : NearTheEnd<R>(variant, players, 5, 3)) {
    std::vector<typename R::State> all;
    Descendants<R>(root, all, 400);
    uint64_t rng = 7;
    for (size_t i = all.size(); i > 1; --i) std::swap(all[i - 1], all[Below(rng, static_cast<int>(i))]);
    RoundSolver<R> small(players, false, 0, {}, nullptr, 4);  // 16 slots, shared by every solve
    for (const auto& s : all) {
      RoundSolver<R> fresh(players, true);
      fresh.Line(s);
      small.Line(s);
      CHECK(fresh.line() == small.line());
    }
  }
}

}  // namespace

TEST(solve_round_classic_is_plain_max_n) { SolveRoundIsPlainMaxN<ClassicRules>(kClassic, 2); }
TEST(solve_round_grey_is_plain_max_n) { SolveRoundIsPlainMaxN<ClassicRules>(kGrey, 3); }
TEST(solve_round_pavilion_is_plain_max_n) { SolveRoundIsPlainMaxN<PavilionRules>(kSummerPavilion, 2); }
TEST(the_table_changes_no_line_classic) { TheTableChangesNoLine<ClassicRules>(kClassic, 2); }
TEST(the_table_changes_no_line_grey) { TheTableChangesNoLine<ClassicRules>(kGrey, 2); }
TEST(the_table_changes_no_line_four_players) { TheTableChangesNoLine<ClassicRules>(kClassic, 4); }
TEST(the_table_changes_no_line_pavilion) { TheTableChangesNoLine<PavilionRules>(kSummerPavilion, 3); }

TEST(the_node_cap_stops_a_solve) {
  const State s = ClassicRules::NewGame(2, kClassic, 4, false, nullptr);
  bool capped = false;
  try {
    SolveRound<ClassicRules>(s, 50);
  } catch (const NodeCap&) {
    capped = true;
  }
  CHECK(capped);
}

CHECK_MAIN()
