// A vector of games stepped together.
#include "azul/vector.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include "azul/observation.h"
#include "azul/playout.h"

namespace azul {

VectorGame::VectorGame(int n, int players, Variant variant, uint64_t seed)
    : n_(n), players_(players), variant_(variant), seed_(seed), games_(n),
      mask_(static_cast<size_t>(n) * kNumActions), actions_(static_cast<size_t>(n) * kNumActions),
      counts_(n), player_(n), scores_(static_cast<size_t>(n) * players), done_(n) {
  ResetAll();
}

void VectorGame::Start(int i) {
  ++started_;
  games_[i] = NewGame(players_, variant_, SplitMixOutput(seed_, started_), false, nullptr);
  Refresh(i);
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

void VectorGame::Refresh(int i) {
  const State& s = games_[i];
  uint8_t* mask = &mask_[static_cast<size_t>(i) * kNumActions];
  int16_t* list = &actions_[static_cast<size_t>(i) * kNumActions];
  const int count = LegalActions(s, list);
  std::fill(list + count, list + kNumActions, static_cast<int16_t>(-1));
  std::memset(mask, 0, kNumActions);
  for (int k = 0; k < count; ++k) mask[list[k]] = 1;
  counts_[i] = static_cast<int16_t>(count);
  player_[i] = s.turn;
  for (int p = 0; p < players_; ++p) scores_[static_cast<size_t>(i) * players_ + p] = s.board[p].score;
  done_[i] = s.phase == kOver;
}

void VectorGame::Observations(float* out) const {
  const int size = ObservationSize(players_);
  for (int i = 0; i < n_; ++i) {
    const State& s = games_[i];
    Observation(s, s.turn >= 0 ? s.turn : 0, out + static_cast<size_t>(i) * size);
  }
}

void VectorGame::Check(const int64_t* actions) const {
  for (int i = 0; i < n_; ++i) {
    if (done_[i]) continue;
    try {
      CheckLegal(games_[i], CheckActionRange(actions[i]));
    } catch (const IllegalMove& e) {
      throw IllegalMove("game " + std::to_string(i) + ": " + e.what());
    }
  }
}

void VectorGame::Apply(const int64_t* actions) {
  for (int i = 0; i < n_; ++i) {
    if (done_[i]) continue;
    ApplyAction(games_[i], static_cast<int>(actions[i]), nullptr);
    Refresh(i);
  }
}

}  // namespace azul
