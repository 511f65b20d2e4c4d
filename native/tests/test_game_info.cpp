// GameInfo (azul/common/game_info.h): the facts agree with the engine's own constants and observation writers.
#include <stdexcept>
#include <string>

#include "azul/classic/observation.h"
#include "azul/classic/state.h"
#include "azul/common/game_info.h"
#include "azul/pavilion/observation.h"
#include "azul/pavilion/state.h"
#include "check.h"

using namespace azul;

TEST(parts_cover_the_tensor_in_order) {
  for (const char* variant : {"classic", "grey", "summer-pavilion"})
    for (int players = 2; players <= 4; ++players) {
      const GameInfo info = MakeGameInfo(variant, players);
      int start = 0;
      for (const ObservationPart& p : info.observation_parts) {
        CHECK_EQ(p.start, start);
        CHECK(p.length > 0);
        start += p.length;
      }
      CHECK_EQ(start, info.observation_size);
      const bool pavilion = std::string(variant) == "summer-pavilion";
      CHECK_EQ(info.observation_size, pavilion ? sp::ObservationSize(players) : ObservationSize(players));
      CHECK_EQ(info.num_actions, pavilion ? sp::kNumActions : kNumActions);
      CHECK_EQ(info.factories, 2 * players + 1);
    }
}

TEST(named_parts_start_at_the_writers_offsets) {
  const GameInfo info = MakeGameInfo("classic", 3);
  for (const ObservationPart& p : info.observation_parts) {
    if (p.name == "seat2.score") CHECK_EQ(p.start, 2 * kSeatFeatures + obs::kScore);
    if (p.name == "round") CHECK_EQ(p.start, 3 * kSeatFeatures + obs::kRound);
  }
  const GameInfo sp_info = MakeGameInfo("summer-pavilion", 2);
  CHECK_EQ(sp_info.start_score, sp::kStartScore);
  CHECK_EQ(sp_info.min_score, sp::kMinScore);
  CHECK_EQ(sp_info.rounds, sp::kRounds);
  CHECK_EQ(sp_info.colours, std::string(sp::kColourLetters));
  CHECK_EQ(MakeGameInfo("grey", 2).rounds, 0);
  CHECK_EQ(MakeGameInfo("grey", 2).max_rounds, kMaxRounds);
}

TEST(bad_arguments_throw) {
  CHECK_THROWS(std::invalid_argument, MakeGameInfo("chess", 2), "unknown variant chess");
  CHECK_THROWS(std::invalid_argument, MakeGameInfo("classic", 5), "players must be 2, 3 or 4");
}

CHECK_MAIN()
