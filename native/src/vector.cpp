// A vector of games stepped together.
#include "azul/vector.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "azul/observation.h"
#include "azul/playout.h"

namespace azul {

VectorGame::VectorGame(int n, int players, int variant, uint64_t seed, bool auto_reset)
    : n_(n), players_(players), variant_(variant),
      num_actions_(variant == kPavilionVariant ? sp::kNumActions : kNumActions),
      auto_reset_(auto_reset), seed_(seed),
      games_(variant == kPavilionVariant ? 0 : n), sp_games_(variant == kPavilionVariant ? n : 0),
      mask_(static_cast<size_t>(n) * num_actions_),
      actions_(static_cast<size_t>(n) * num_actions_, static_cast<int16_t>(-1)), action_buffer_(n),
      counts_(n), player_(n), scores_(static_cast<size_t>(n) * players), done_(n),
      final_scores_(auto_reset ? static_cast<size_t>(n) * players : 0),
      final_returns_(auto_reset ? static_cast<size_t>(n) * players : 0) {
  ResetAll();
}

int VectorGame::observation_size() const {
  return pavilion() ? sp::ObservationSize(players_) : ObservationSize(players_);
}

void VectorGame::Start(int i) {
  ++started_;
  const uint64_t seed = SplitMixOutput(seed_, started_);
  if (pavilion())
    sp_games_[i] = sp::NewGame(players_, seed, false, nullptr);
  else
    games_[i] = NewGame(players_, static_cast<Variant>(variant_), seed, false, nullptr);
  Refresh(i);
}

// Game i is over: its scores and returns go to the final arrays (winners as Winners() and
// sp::Winners() choose them, without their lists).
void VectorGame::Finish(int i) {
  int32_t* scores = &final_scores_[static_cast<size_t>(i) * players_];
  float* returns = &final_returns_[static_cast<size_t>(i) * players_];
  int rows[kMaxPlayers] = {0, 0, 0, 0};
  for (int p = 0; p < players_; ++p) {
    if (pavilion()) {
      scores[p] = sp_games_[i].score[p];
    } else {
      scores[p] = games_[i].board[p].score;
      rows[p] = CompleteRows(games_[i], p);
    }
  }
  int best = 0;
  for (int p = 1; p < players_; ++p)
    if (scores[p] > scores[best] || (scores[p] == scores[best] && rows[p] > rows[best])) best = p;
  int winners = 0;
  for (int p = 0; p < players_; ++p) winners += scores[p] == scores[best] && rows[p] == rows[best];
  for (int p = 0; p < players_; ++p)
    returns[p] = scores[p] == scores[best] && rows[p] == rows[best] ? (winners == 1 ? 1.0f : 0.0f)
                                                                      : -1.0f;
}

void VectorGame::ResetAll() {
  for (int i = 0; i < n_; ++i) Start(i);
}

void VectorGame::Reset(const std::vector<int>& slots) {
  for (int i : slots)
    if (i < 0 || i >= n_)
      throw std::out_of_range("game " + std::to_string(i) + " is out of range 0-" +
                              std::to_string(n_ - 1));
  for (int i : slots) Start(i);
}

// Rewrites game i's row of every array.  A row's list holds its legal ids (ascending) then -1
// and its mask is set exactly at the listed ids, so a Summer Pavilion mask (1798 wide) is only
// cleared from the old list's first id to its last; a classic one (314) is cleared whole.  The
// list's -1 tail is rewritten only where the old list or the generator's scratch wrote.
void VectorGame::Refresh(int i) {
  uint8_t* mask = &mask_[static_cast<size_t>(i) * num_actions_];
  int16_t* list = &actions_[static_cast<size_t>(i) * num_actions_];
  int32_t* scores = &scores_[static_cast<size_t>(i) * players_];
  const int old_count = counts_[i];
  int count;
  if (pavilion()) {
    if (old_count)  // the old list is ascending: its ids lie in list[0]..list[old_count - 1]
      std::memset(mask + list[0], 0, static_cast<size_t>(list[old_count - 1] - list[0] + 1));
    const sp::State& s = sp_games_[i];
    count = sp::LegalActionsAndMask(s, list, mask);
    player_[i] = s.turn;
    for (int p = 0; p < players_; ++p) scores[p] = s.score[p];
    done_[i] = s.phase == sp::kOver;
  } else {
    std::memset(mask, 0, kNumActions);
    const State& s = games_[i];
    count = LegalActionsAndMask(s, list, mask);
    player_[i] = s.turn;
    for (int p = 0; p < players_; ++p) scores[p] = s.board[p].score;
    done_[i] = s.phase == kOver;
  }
  const int end = std::min(num_actions_, std::max(old_count, count + kLegalScratch));
  for (int k = count; k < end; ++k) list[k] = -1;
  counts_[i] = static_cast<int16_t>(count);
}

void VectorGame::Observations(float* out) const {
  const int size = observation_size();
  for (int i = 0; i < n_; ++i) {
    float* row = out + static_cast<size_t>(i) * size;
    if (pavilion()) {
      const sp::State& s = sp_games_[i];
      sp::Observation(s, s.turn >= 0 ? s.turn : 0, row);
    } else {
      const State& s = games_[i];
      Observation(s, s.turn >= 0 ? s.turn : 0, row);
    }
  }
}

void VectorGame::Check(const int64_t* actions, int games) const {
  for (int i = 0; i < games; ++i) {
    if (done_[i] && !auto_reset_) continue;
    // The mask is the game's legal set: only a refused action needs the rules' own check,
    // which throws naming the rule.
    const int64_t a = actions[i];
    if (a >= 0 && a < num_actions_ && mask_[static_cast<size_t>(i) * num_actions_ + a]) continue;
    try {
      if (pavilion())
        sp::CheckLegal(sp_games_[i], sp::CheckActionRange(a));
      else
        CheckLegal(games_[i], CheckActionRange(a));
    } catch (const IllegalMove& e) {
      throw IllegalMove("game " + std::to_string(i) + ": " + e.message());
    }
  }
}

int VectorGame::Apply(const int64_t* actions, StopCheck stop) {
  for (int i = 0; i < n_; ++i) {
    if (i % kPollGames == 0 && i > 0 && stop()) return i;
    if (done_[i] && !auto_reset_) continue;
    if (pavilion())
      sp::Play(sp_games_[i], static_cast<int>(actions[i]), nullptr);
    else
      ApplyAction(games_[i], static_cast<int>(actions[i]), nullptr);
    Refresh(i);
    if (auto_reset_ && done_[i]) {
      Finish(i);
      Start(i);
      done_[i] = 1;
    }
  }
  return n_;
}

}  // namespace azul
