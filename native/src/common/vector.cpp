// A vector of games stepped together, written once on the variants' rules traits
// (azul/variant.h): WithRules picks the rules, the templates below do the work.
// Pure-Python twin: python/azul_engine/_pure/vector.py.
#include "azul/common/vector.h"

#include "azul/common/bits.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace azul {

VectorGame::VectorGame(int n, int players, Variant variant, uint64_t seed, AutoReset auto_reset)
    : n_(n), players_(players), variant_(variant),
      num_actions_(WithRules(variant, [](auto r) { return decltype(r)::kNumActions; })),
      auto_reset_(auto_reset), seed_(seed), mask_(static_cast<size_t>(n) * num_actions_),
      actions_(static_cast<size_t>(n) * num_actions_, static_cast<int16_t>(-1)), action_buffer_(n),
      counts_(n), player_(n), scores_(static_cast<size_t>(n) * players), done_(n),
      final_scores_(static_cast<size_t>(n) * players), final_returns_(static_cast<size_t>(n) * players),
      start_(n), numbers_(n) {
  WithRules(variant, [&](auto r) { Games<decltype(r)>().resize(n); });
  ResetAll();
}

int VectorGame::observation_size() const {
  return WithRules(variant_, [&](auto r) { return decltype(r)::ObservationSize(players_); });
}

void VectorGame::Start(int i) { StartGame(i, ++started_); }

// Slot i starts the vector's game number `number` (from 1: the seed is output `number`).
void VectorGame::StartGame(int i, uint64_t number) {
  const uint64_t seed = SplitMixOutput(seed_, number);
  WithRules(variant_, [&](auto r) {
    using R = decltype(r);
    Games<R>()[i] = R::NewGame(players_, variant_, seed, false, nullptr);
    Refresh<R>(i);
  });
}

// Game i is over: its scores and returns go to the final arrays (winners as R::Winners chooses
// them: the highest score, then R::TieBreak; without their list).
template <typename R>
void VectorGame::Finish(int i) {
  const typename R::State& s = Games<R>()[i];
  int32_t* scores = &final_scores_[static_cast<size_t>(i) * players_];
  float* returns = &final_returns_[static_cast<size_t>(i) * players_];
  int ties[kMaxPlayers] = {0, 0, 0, 0};
  for (int p = 0; p < players_; ++p) {
    scores[p] = R::Score(s, p);
    ties[p] = R::TieBreak(s, p);
  }
  int best = 0;
  for (int p = 1; p < players_; ++p)
    if (scores[p] > scores[best] || (scores[p] == scores[best] && ties[p] > ties[best])) best = p;
  int winners = 0;
  for (int p = 0; p < players_; ++p) winners += scores[p] == scores[best] && ties[p] == ties[best];
  for (int p = 0; p < players_; ++p)
    returns[p] = scores[p] == scores[best] && ties[p] == ties[best] ? (winners == 1 ? 1.0f : 0.0f)
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

void VectorGame::Refresh(int i) {
  WithRules(variant_, [&](auto r) { Refresh<decltype(r)>(i); });
}

// Rewrites game i's row of every array.  A row's list holds its legal ids (ascending) then -1
// and its mask is set exactly at the listed ids, so a wide mask (R::kClearMaskSpan: Summer
// Pavilion's 1798) is cleared only from the old list's first id to its last; a narrow one
// (classic's 314) is cleared whole.  The list's -1 tail is rewritten only where the old list or the generator's
// scratch wrote.
template <typename R>
void VectorGame::Refresh(int i) {
  uint8_t* mask = &mask_[static_cast<size_t>(i) * num_actions_];
  int16_t* list = &actions_[static_cast<size_t>(i) * num_actions_];
  int32_t* scores = &scores_[static_cast<size_t>(i) * players_];
  const int old_count = counts_[i];
  if constexpr (R::kClearMaskSpan) {
    if (old_count)  // the old list is ascending: its ids lie in list[0]..list[old_count - 1]
      std::memset(mask + list[0], 0, static_cast<size_t>(list[old_count - 1] - list[0] + 1));
  } else {
    ZeroBytes<R::kNumActions>(mask);
  }
  const typename R::State& s = Games<R>()[i];
  const int count = R::LegalActionsAndMask(s, list, mask);
  player_[i] = static_cast<int8_t>(R::CurrentPlayer(s));
  for (int p = 0; p < players_; ++p) scores[p] = R::Score(s, p);
  done_[i] = R::IsOver(s);
  const int end = std::min(num_actions_, std::max(old_count, count + kLegalScratch));
  for (int k = count; k < end; ++k) list[k] = -1;
  counts_[i] = static_cast<int16_t>(count);
}

void VectorGame::Observations(float* out, const uint8_t* games, int threads) const {
  WithRules(variant_, [&](auto r) {
    using R = decltype(r);
    auto body = [&](int i) {
      if (!games || games[i]) Observe<R>(i, out);
    };
    pool_.Run(n_, threads, body);
  });
}

void VectorGame::Check(const int64_t* actions, int games) const {
  WithRules(variant_, [&](auto r) {
    using R = decltype(r);
    for (int i = 0; i < games; ++i) {
      if (Waiting(i)) continue;
      // The mask is the game's legal set: only a refused action needs the rules' own check,
      // which throws naming the rule.
      const int64_t a = actions[i];
      if (InMask(i, a)) continue;
      try {
        R::CheckLegal(Games<R>()[i], R::CheckActionRange(a));
      } catch (const IllegalMove& e) {
        throw IllegalMove("game " + std::to_string(i) + ": " + e.message());
      }
    }
  });
}

void VectorGame::CheckOn(const int64_t* actions, int threads) {
  if (threads == 1 || n_ == 1) {
    Check(actions);
    return;
  }
  uint8_t* refused = start_.data();  // scratch here: Apply writes start_ before it reads it
  pool_.Ready(n_, threads);
  auto body = [&](int i) { refused[i] = !Waiting(i) && !InMask(i, actions[i]); };
  pool_.Run(n_, threads, body);
  const void* first = std::memchr(refused, 1, static_cast<size_t>(n_));
  if (first) Check(actions);  // the rules name what is wrong (with the first refused game)
}

int VectorGame::Apply(const int64_t* actions, StopCheck stop, int threads, float* observations,
                      float* rewards, uint8_t* masks) {
  return WithRules(variant_, [&](auto r) {
    return ApplyWith<decltype(r)>(actions, stop, threads, observations, rewards, masks);
  });
}

template <typename R>
void VectorGame::Observe(int i, float* observations) const {
  const typename R::State& s = Games<R>()[i];
  const int turn = R::CurrentPlayer(s);
  R::Observation(s, turn >= 0 ? turn : 0, observations + static_cast<size_t>(i) * R::ObservationSize(players_));
}

template <typename R>
void VectorGame::Emit(int i, float* observations, uint8_t* masks) const {
  if (observations) Observe<R>(i, observations);
  if (masks) {
    const size_t row = static_cast<size_t>(i) * num_actions_;
    std::memcpy(masks + row, &mask_[row], static_cast<size_t>(num_actions_));
  }
}

// One game's part of a step, but for starting a new game (which takes the vector's next seed, so
// it must come in index order): returns whether slot i must start a new game.
template <typename R>
bool VectorGame::Move(int i, int64_t action, float* reward) {
  float gain = 0.0f;
  bool start = false;
  if (Waiting(i)) {
    start = auto_reset_ == AutoReset::kNextStep;  // its action is not applied
  } else {
    typename R::State& s = Games<R>()[i];
    const int mover = R::CurrentPlayer(s);
    R::ApplyAction(s, static_cast<int>(action), nullptr);
    Refresh<R>(i);
    if (done_[i]) {
      Finish<R>(i);
      gain = final_returns_[static_cast<size_t>(i) * players_ + mover];
      start = auto_reset_ == AutoReset::kSameStep;
    }
  }
  if (reward) *reward = gain;
  return start;
}

// Starts slot i's next game in a step: kSameStep keeps done set (the game ended in this step).
void VectorGame::Restart(int i) {
  Start(i);
  if (auto_reset_ == AutoReset::kSameStep) done_[i] = 1;
}

template <typename R>
int VectorGame::ApplyWith(const int64_t* actions, StopCheck stop, int threads, float* observations,
                          float* rewards, uint8_t* masks) {
  if (threads != 1 && n_ > 1) {
    // The moves on the threads (each game's rows are its own); the new games in the same pass
    // when their slots are known before it (kNextStep: the games over since the last step, given
    // their numbers in slot order first), else after it, in slot order: either way the one-thread
    // loop's seeds go to the same slots.
    uint8_t* start = start_.data();
    uint64_t* numbers = numbers_.data();
    pool_.Ready(n_, threads);  // a refused thread throws here, before any game is numbered or moved
    if (auto_reset_ == AutoReset::kNextStep)
      for (int i = 0; i < n_; ++i) numbers[i] = done_[i] ? ++started_ : 0;
    auto body = [&](int i) {
      if (auto_reset_ == AutoReset::kNextStep && numbers[i]) {
        StartGame(i, numbers[i]);
        start[i] = 0;
        if (rewards) rewards[i] = 0.0f;
      } else {
        start[i] = Move<R>(i, actions[i], rewards ? rewards + i : nullptr);
      }
      if (!start[i]) Emit<R>(i, observations, masks);
    };
    pool_.Run(n_, threads, body);
    for (int i = 0; i < n_; ++i) {
      if (!start[i]) continue;
      Restart(i);
      Emit<R>(i, observations, masks);
    }
    return n_;
  }
  for (int i = 0; i < n_; ++i) {
    if (i % kPollGames == 0 && i > 0 && stop()) return i;
    if (Move<R>(i, actions[i], rewards ? rewards + i : nullptr)) Restart(i);
    // Written while the game is in the cache: a second pass over n games would read them again.
    Emit<R>(i, observations, masks);
  }
  return n_;
}

std::string VectorGame::GameText(int i) const {
  return WithRules(variant_, [&](auto r) {
    using R = decltype(r);
    return R::ToText(Games<R>()[i], nullptr);
  });
}

void VectorGame::SetGameText(int i, const std::string& text) {
  WithRules(variant_, [&](auto r) {
    using R = decltype(r);
    // Read with the rules the text names, so that a game of another variant is refused as one.
    const Variant rules = TextRules(text);
    bool fits = false;
    typename R::State s{};
    WithRules(rules, [&](auto t) {
      using T = decltype(t);
      typename T::History h;  // read and checked as from_text reads it, then dropped
      const typename T::State g = T::FromText(text, &h);
      if constexpr (std::is_same_v<T, R>) {
        fits = T::Players(g) == players_ && T::VariantOf(g) == variant_;
        s = g;
      }
    });
    if (!fits)
      throw std::invalid_argument("VectorGame pickle: game " + std::to_string(i) + " is not a " +
                                  std::to_string(players_) + "-player " +
                                  kVariantNames[variant_] + " game");
    Games<R>()[i] = s;
    Refresh<R>(i);
  });
}

}  // namespace azul
