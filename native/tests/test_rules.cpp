// A few rules tests of the core without Python: errors and their messages, state text read
// back to the same state at every ply, records and score sheets pinned against the pure
// engine's, VectorGame equal to games stepped one by one.  (The full rules suite is tests/,
// run on both engines by pytest.)
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "azul/common/rng.h"
#include "azul/common/vector.h"
#include "azul/variant.h"
#include "check.h"

using namespace azul;

namespace {

std::string Fnv(const std::string& text) {
  uint64_t h = 0xCBF29CE484222325ULL;
  for (unsigned char b : text) h = (h ^ b) * 0x100000001B3ULL;
  char out[17];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

// A game played to its end with LegalActions(s)[Below(policy, n)], policy seed `policy`;
// `each` sees every state on the way.
template <typename R, typename Each>
void PlayOut(typename R::State& s, typename R::History* h, uint64_t policy, Each each) {
  int16_t legal[R::kNumActions + kLegalScratch];
  while (!R::IsOver(s)) {
    each(s);
    const int n = R::LegalActions(s, legal);
    const int action = legal[Below(policy, n)];
    R::CheckLegal(s, action);
    R::ApplyAction(s, action, h);
  }
  each(s);
}

}  // namespace

TEST(illegal_moves_name_the_rule) {
  State s = NewGame(2, kClassic, 1, false, nullptr);
  CHECK_THROWS(IllegalMove, CheckLegal(s, 313),
               "action 313 is a chance outcome, and this is not a chance node");
  CHECK_THROWS(IllegalMove, CheckLegal(s, 0), "factory 1 has no blue");
  CHECK_THROWS(IllegalMove, CheckActionRange(314), "action 314 is out of range 0-313");
  sp::State p = sp::NewGame(2, 1, false, nullptr);
  CHECK_THROWS(IllegalMove, sp::CheckLegal(p, 1797),
               "action 1797 is a chance outcome, and this is not a chance node");
  CHECK_THROWS(IllegalMove, sp::CheckLegal(p, 60),
               "phase 1 (acquire): take tiles from a factory or the centre, as in 3R or CG");
}

TEST(deal_checks_the_phase_then_the_count) {
  State s = NewGame(2, kClassic, 1, true, nullptr);
  ApplyAction(s, kFirstPlayerActionBase, nullptr);
  CHECK_THROWS(IllegalMove, CheckDealShape(s, 3), "deal: 2 players need 5 factory strings");
  sp::State p = sp::NewGame(3, 1, false, nullptr);
  CHECK_THROWS(IllegalMove, sp::CheckDealShape(p, 3), "deal: 3 players need 7 factory strings");
  int16_t legal[sp::kNumActions + kLegalScratch];
  sp::ApplyAction(p, legal[sp::LegalActions(p, legal) - 1], nullptr);
  CHECK_THROWS(IllegalMove, sp::CheckDealShape(p, 7),
               "deal: factories can only be dealt before the round's first move");
}

TEST(state_text_reads_back_to_the_same_state) {
  for (Variant v : {kClassic, kGrey, kSummerPavilion})
    WithRules(v, [&](auto r) {
      using R = decltype(r);
      for (uint64_t seed = 0; seed < 3; ++seed) {
        typename R::History h;
        typename R::State s = R::NewGame(2 + static_cast<int>(seed), v, seed, false, &h);
        PlayOut<R>(s, &h, seed + 100, [&](const typename R::State& at) {
          typename R::History read;
          CHECK(R::FromText(R::ToText(at, &h), &read) == at);
          CHECK_EQ(R::ToText(R::FromText(R::ToText(at, &h), &read), &read), R::ToText(at, &h));
        });
      }
    });
}

TEST(text_rules_check_the_version) {
  CHECK_THROWS(StateFormatError, TextRules("azul-state/2 x"),
               "unsupported state text version 'azul-state/2' (this engine reads azul-state/1)");
  CHECK_THROWS(StateFormatError, TextRules("chess"),
               "not an Azul state: the text must start with azul-state/1");
  CHECK_EQ(TextRules(sp::ToText(sp::NewGame(2, 3, false, nullptr), nullptr)), kSummerPavilion);
  CHECK_EQ(TextRules(ToText(NewGame(2, kGrey, 3, false, nullptr), nullptr)), kClassic);
}

TEST(end_bonus_of_a_full_wall) {
  const EndBonus b = WallEndBonus(WallRows("BYRKW/WBYRK/KWBYR/RKWBY/YRKWB"), true);
  CHECK_EQ(b.rows, 5);
  CHECK_EQ(b.columns, 5);
  CHECK_EQ(b.colours, 5);
  CHECK_EQ(b.points, 95);
  CHECK_THROWS(StateFormatError, WallEndBonus(WallRows("BYRKW/WBYRK"), true),
               "wall: not 5 rows of 5 cells (colour letters or '.')");
}

// Records and score sheets of seeded games, pinned from the pure engine (the same game played
// with the same policy there gives the same JSON, byte for byte).
TEST(records_and_score_sheets_match_the_pure_engine) {
  struct Case {
    Variant variant;
    const char* record;
    const char* sheet;
  };
  const Case cases[] = {
      {kClassic, "986d1a4892f481cb", "30ce3f7ff04032d7"},
      {kGrey, "0dc69ccdd2208deb", "0ab44b6996ac868f"},
      {kSummerPavilion, "346fd6aca7cdf21a", "7029b0a1a96db93d"},
  };
  for (const Case& c : cases)
    WithRules(c.variant, [&](auto r) {
      using R = decltype(r);
      typename R::History h;
      typename R::State s = R::NewGame(2, c.variant, 7, false, &h);
      PlayOut<R>(s, &h, 7, [](const typename R::State&) {});
      CHECK_EQ(Fnv(R::RecordJson(s, h)), std::string(c.record));
      CHECK_EQ(Fnv(R::ScoreSheetJson(s, h)), std::string(c.sheet));
    });
}

TEST(vector_game_steps_as_single_games) {
  for (Variant v : {kClassic, kSummerPavilion})
    WithRules(v, [&](auto r) {
      using R = decltype(r);
      const int n = 5;
      VectorGame vec(n, 2, v, 77);
      std::vector<typename R::State> games;
      for (int i = 0; i < n; ++i)
        games.push_back(R::FromText(vec.GameText(i), nullptr));
      std::vector<int64_t> actions(n);
      for (int step = 0; step < 300; ++step) {
        for (int i = 0; i < n; ++i) {
          const int count = vec.num_legal()[i];
          actions[i] = count ? vec.legal_actions()[i * R::kNumActions + (step % count)] : 0;
        }
        vec.Check(actions.data());
        vec.Apply(actions.data());
        for (int i = 0; i < n; ++i) {
          if (!R::IsOver(games[i])) R::ApplyAction(games[i], static_cast<int>(actions[i]), nullptr);
          CHECK_EQ(vec.GameText(i), R::ToText(games[i], nullptr));
          CHECK_EQ(static_cast<bool>(vec.done()[i]), R::IsOver(games[i]));
        }
      }
      std::vector<int64_t> bad(n, R::kNumActions);
      bool refused = false;
      try {
        vec.Check(bad.data());
      } catch (const IllegalMove&) {
        refused = true;
      }
      CHECK(refused || vec.done()[0]);
    });
}

CHECK_MAIN()
