// The core's game with its history and undo (azul/common/game.h), without Python: every move of a
// played game taken back restores the position and the state text with its history exactly, an
// illegal move changes nothing, and a deal or a reseed leaves nothing to undo.  (Python's
// tests/test_undo.py checks the same through both engines.)
#include <cstdint>
#include <string>
#include <vector>

#include "azul/common/game.h"
#include "azul/common/rng.h"
#include "check.h"

using namespace azul;

namespace {

// Plays `g` to its end with a seeded random policy, then takes every move back, checking each
// position and history against the ones seen on the way.
template <typename R>
void PlayAndTakeBack(Game<R>& g, uint64_t policy) {
  std::vector<std::string> texts{g.ToText(true)};
  std::vector<uint64_t> keys{g.Key()};
  while (!g.IsOver()) {
    const std::vector<int> legal = g.LegalActions();
    g.Apply(legal[Below(policy, static_cast<int>(legal.size()))]);
    texts.push_back(g.ToText(true));
    keys.push_back(g.Key());
  }
  CHECK_EQ(g.UndoDepth(), texts.size() - 1);
  while (g.UndoDepth() > 0) {
    g.Undo();
    texts.pop_back();
    keys.pop_back();
    CHECK_EQ(g.ToText(true), texts.back());
    CHECK_EQ(g.Key(), keys.back());
  }
  CHECK_THROWS(IllegalMove, g.Undo(), kNothingToUndo);
}

}  // namespace

TEST(undo_takes_back_every_move_of_a_classic_game) {
  for (Variant v : {kClassic, kGrey}) {
    ClassicGame g = ClassicGame::New(3, v, 7, false);
    PlayAndTakeBack(g, 11);
  }
}

TEST(undo_takes_back_every_move_of_a_summer_pavilion_game) {
  PavilionGame g = PavilionGame::New(2, kSummerPavilion, 7, false);
  PlayAndTakeBack(g, 12);
}

TEST(an_illegal_move_changes_nothing) {
  ClassicGame g = ClassicGame::New(2, kClassic, 1, false);
  const std::string before = g.ToText(true);
  CHECK_THROWS(IllegalMove, g.Apply(0), "factory 1 has no blue");
  CHECK_EQ(g.ToText(true), before);
  CHECK_EQ(g.UndoDepth(), size_t{0});
}

TEST(a_deal_or_a_reseed_leaves_nothing_to_undo) {
  ClassicGame g = ClassicGame::New(2, kClassic, 1, true);
  g.Apply(g.LegalActions().front());  // the first player, a chance outcome
  CHECK(g.UndoDepth() == 1);
  g.Deal({"BBBB", "YYYY", "RRRR", "KKKK", "WWWW"});
  CHECK(!g.IsChanceNode());
  CHECK_EQ(g.UndoDepth(), size_t{0});
  g.Apply(g.LegalActions().front());
  g.Reseed(99);
  CHECK_EQ(g.UndoDepth(), size_t{0});
  CHECK(!g.history().seed_known);
  CHECK_THROWS(IllegalMove, g.Undo(), kNothingToUndo);
}

TEST(a_game_reads_back_from_its_text) {
  PavilionGame g = PavilionGame::New(3, kSummerPavilion, 5, false);
  for (int i = 0; i < 10; ++i) g.Apply(g.LegalActions().back());
  const PavilionGame back = PavilionGame::FromText(g.ToText(true));
  CHECK_EQ(back.ToText(true), g.ToText(true));
  CHECK(back.state() == g.state());
  CHECK_EQ(back.UndoDepth(), size_t{0});
}

CHECK_MAIN()

// Returns(): 0 for every seat until the end, then +1 a sole winner, 0 each of several, -1 the others.
template <typename R>
void CheckReturns(Game<R> g, uint64_t policy) {
  for (double r : g.Returns()) CHECK(r == 0.0);
  while (!g.IsOver()) {
    const std::vector<int> legal = g.LegalActions();
    g.Apply(legal[Below(policy, static_cast<int>(legal.size()))]);
  }
  const std::vector<int> winners = R::Winners(g.state());
  const std::vector<double> returns = g.Returns();
  CHECK_EQ(returns.size(), static_cast<size_t>(g.state().players));
  for (int p = 0; p < g.state().players; ++p) {
    bool won = false;
    for (int w : winners) won |= w == p;
    CHECK(returns[static_cast<size_t>(p)] == (won ? (winners.size() == 1 ? 1.0 : 0.0) : -1.0));
  }
}

TEST(returns_are_zero_until_the_end_then_one_for_a_sole_winner) {
  for (uint64_t seed = 1; seed <= 3; ++seed) {
    CheckReturns(ClassicGame::New(3, kClassic, seed, false), seed);
    CheckReturns(PavilionGame::New(2, kSummerPavilion, seed, false), seed);
  }
}
