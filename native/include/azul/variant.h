// The one interface the variants implement: a rules traits type per set of rules, in the manner
// of OpenSpiel's Game/State (one State type, the moves on it, its text, its observation, its
// playouts), so that VectorGame, playout batches and the bindings are written once for all
// variants.  ClassicRules serves classic and grey (State::variant tells them apart),
// PavilionRules serves Summer Pavilion.  WithRules is the one variant switch: code outside this
// header asks it for the rules of a Variant instead of testing the variant itself.
// Pure-Python twin: none (the rules traits; the pure engine's two state classes are the two rule sets).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "azul/classic/key.h"
#include "azul/classic/notation.h"
#include "azul/classic/observation.h"
#include "azul/classic/playout.h"
#include "azul/classic/state.h"
#include "azul/classic/text.h"
#include "azul/common/parallel.h"
#include "azul/common/types.h"
#include "azul/pavilion/key.h"
#include "azul/pavilion/kernel.h"
#include "azul/pavilion/notation.h"
#include "azul/pavilion/observation.h"
#include "azul/pavilion/playout.h"
#include "azul/pavilion/state.h"
#include "azul/pavilion/text.h"

namespace azul {

// Classic and grey-wall Azul (native/src/classic/).
struct ClassicRules {
  using State = azul::State;
  using History = azul::History;
  static constexpr int kNumActions = azul::kNumActions;
  // A mask row of legal actions is narrow (314 bytes): clearing it whole beats tracking its span.
  static constexpr bool kClearMaskSpan = false;

  static State NewGame(int players, Variant variant, uint64_t seed, bool explicit_chance,
                       History* h) {
    return azul::NewGame(players, variant, seed, explicit_chance, h);
  }
  static Variant VariantOf(const State& s) { return static_cast<Variant>(s.variant); }
  static int Players(const State& s) { return s.players; }
  static int CurrentPlayer(const State& s) { return s.turn; }
  static bool IsOver(const State& s) { return s.phase == kOver; }
  static bool IsChanceNode(const State& s) { return s.phase == kFirstPlayer || s.phase == kFill; }
  static int Score(const State& s, int player) { return s.board[player].score; }
  // Winners()'s tie-break after the score: complete wall rows.
  static int TieBreak(const State& s, int player) { return azul::CompleteRows(s, player); }
  // The position key (docs/game-api.md "Position keys").
  static uint64_t Key(const State& s) { return azul::PositionKey(s); }
  // The key, and a second hash of its words into `check` (azul/common/key.h: the key alone collides).
  static uint64_t Key(const State& s, uint64_t* check) { return azul::PositionKey(s, check); }

  static int LegalActions(const State& s, int16_t* out) { return azul::LegalActions(s, out); }
  static int LegalActionsAndMask(const State& s, int16_t* out, uint8_t* mask) {
    return azul::LegalActionsAndMask(s, out, mask);
  }
  static std::vector<int> LegalActionList(const State& s) { return azul::LegalActionList(s); }
  static std::vector<std::pair<int, double>> ChanceOutcomes(const State& s) {
    return azul::ChanceOutcomes(s);
  }
  // ChanceOutcomes of a chance node into arrays of kMaxChanceOutcomes; returns how many.
  static int ChanceOutcomes(const State& s, int16_t* actions, double* probabilities) {
    return ChanceOutcomesInto(kChanceActions, s.phase == kFirstPlayer, s.bag, s.players, actions,
                              probabilities);
  }
  static std::string ActionToString(const State& s, int action) {
    return azul::ActionToString(s, action);
  }
  // The greedy bot's value of a legal `action` for `player` (docs/search.md section 2): the
  // player's score if the round ended right after it.
  static int GreedyValue(const State& s, int action, int player) {
    State after = s;
    azul::ApplyAction(after, action, nullptr);
    return azul::ScoreIfRoundEnded(after)[player];
  }
  // The exact search (docs/search.md section 16): its measure of the moves left in a round, the
  // (source, colour) pairs holding tiles (each take empties at least one) and, on the grey wall, the
  // full pattern lines (each a column to choose); the moves it considers, every legal one; and no
  // passes.
  static int MovesLeft(const State& s) {
    int n = 0;
    for (int f = 0; f < s.num_factories; ++f)
      for (int c = 0; c < 5; ++c) n += s.factories[f][c] != 0;
    for (int c = 0; c < 5; ++c) n += s.centre[c] != 0;
    if (s.variant == kGrey)
      for (int p = 0; p < s.players; ++p)
        for (int r = 0; r < 5; ++r) n += s.board[p].line_count[r] == r + 1;
    return n;
  }
  static int ExactMoves(const State& s, int16_t* out) { return azul::LegalActions(s, out); }
  static bool IsPass(int) { return false; }
  static int CheckActionRange(long long action) { return azul::CheckActionRange(action); }
  static void CheckLegal(const State& s, int action) { azul::CheckLegal(s, action); }
  static void ApplyAction(State& s, int action, History* h) { azul::ApplyAction(s, action, h); }
  static void CheckDealShape(const State& s, size_t count) { azul::CheckDealShape(s, count); }
  static void Deal(State& s, const std::vector<std::string>& factories, History* h) {
    azul::Deal(s, factories, h);
  }

  static int ObservationSize(int players) { return azul::ObservationSize(players); }
  static void Observation(const State& s, int player, float* out) {
    azul::Observation(s, player, out);
  }
  static uint64_t RandomPlayouts(int n, int players, Variant variant, uint64_t seed, int threads,
                                 int32_t* out, StopCheck stop,
                                 Policy policy = Policy::kUniform) {
    return azul::RandomPlayouts(n, players, variant, seed, threads, out, stop, policy);
  }
  static uint64_t PlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out,
                               StopCheck stop, Policy policy = Policy::kUniform) {
    return azul::PlayoutsFrom(s, n, seed, threads, out, stop, policy);
  }

  static std::string ToText(const State& s, const History* h) { return azul::ToText(s, h); }
  static State FromText(const std::string& text, History* h) { return azul::FromText(text, h); }
  static std::string RecordJson(const State& s, const History& h) {
    return azul::RecordJson(s, h);
  }
  static std::string ScoreSheetJson(const State& s, const History& h) {
    return azul::ScoreSheetJson(s, h);
  }
  static std::vector<int> Winners(const State& s) { return azul::Winners(s); }
};

// Azul: Summer Pavilion (native/src/pavilion/).
struct PavilionRules {
  using State = sp::State;
  using History = sp::History;
  static constexpr int kNumActions = sp::kNumActions;
  // A mask row is wide (1798 bytes) and sparse: clear only the span of the last legal list.
  static constexpr bool kClearMaskSpan = true;

  static State NewGame(int players, Variant, uint64_t seed, bool explicit_chance, History* h) {
    return sp::NewGame(players, seed, explicit_chance, h);
  }
  static Variant VariantOf(const State&) { return kSummerPavilion; }
  static int Players(const State& s) { return s.players; }
  static int CurrentPlayer(const State& s) { return s.turn; }
  static bool IsOver(const State& s) { return s.phase == sp::kOver; }
  static bool IsChanceNode(const State& s) {
    return s.phase == sp::kFirstPlayer || s.phase == sp::kFill;
  }
  static int Score(const State& s, int player) { return s.score[player]; }
  // Winners()'s tie-break after the score: none.
  static int TieBreak(const State&, int) { return 0; }
  static uint64_t Key(const State& s) { return sp::PositionKey(s); }
  static uint64_t Key(const State& s, uint64_t* check) { return sp::PositionKey(s, check); }

  static int LegalActions(const State& s, int16_t* out) { return sp::LegalActions(s, out); }
  static int LegalActionsAndMask(const State& s, int16_t* out, uint8_t* mask) {
    return sp::LegalActionsAndMask(s, out, mask);
  }
  static std::vector<int> LegalActionList(const State& s) { return sp::LegalActionList(s); }
  static std::vector<std::pair<int, double>> ChanceOutcomes(const State& s) {
    return sp::ChanceOutcomes(s);
  }
  static int ChanceOutcomes(const State& s, int16_t* actions, double* probabilities) {
    return ChanceOutcomesInto(sp::kChanceActions, s.phase == sp::kFirstPlayer, s.bag, s.players,
                              actions, probabilities);
  }
  static std::string ActionToString(const State&, int action) { return sp::ActionText(action); }
  // The greedy bot's value: the score after the move plus a point for each tile in hand.
  static int GreedyValue(const State& s, int action, int player) {
    State after = s;
    sp::ApplyAction(after, action, nullptr);
    int value = after.score[player];
    for (int c = 0; c < sp::kColours; ++c) value += after.hand[player][c];
    return value;
  }
  // The exact search (docs/search.md section 16): the moves left, the (source, colour) pairs
  // holding tiles plus the tiles in the hands of the players who have not passed (each placement
  // pays at least one); the moves considered, the legal ones but of the passes only the first of
  // those keeping the most tiles (which tiles matters only after the round); and the passes.
  static int MovesLeft(const State& s) {
    int n = 0;
    for (int f = 0; f < s.num_factories; ++f)
      for (int c = 0; c < sp::kColours; ++c) n += s.factories[f][c] != 0;
    for (int c = 0; c < sp::kColours; ++c) n += s.centre[c] != 0;
    for (int p = 0; p < s.players; ++p)
      if (!s.passed[p])
        for (int c = 0; c < sp::kColours; ++c) n += s.hand[p][c];
    return n;
  }
  static int ExactMoves(const State& s, int16_t* out) {
    const int n = sp::LegalActions(s, out);
    if (n == 0 || !IsPass(out[n - 1])) return n;
    int i = n;
    while (i > 0 && IsPass(out[i - 1])) --i;
    int most = 0;
    for (int j = i; j < n; ++j) most = std::max(most, KeepSize(out[j]));
    for (int j = i; j < n; ++j)
      if (KeepSize(out[j]) == most) {
        out[i] = out[j];
        break;
      }
    return i + 1;
  }
  static bool IsPass(int action) { return action >= sp::kPassActionBase && action < sp::kDrawActionBase; }
  static int KeepSize(int pass) {
    int size = 0;
    for (int c = 0; c < sp::kColours; ++c) size += sp::KeepSets()[pass - sp::kPassActionBase][c];
    return size;
  }
  static int CheckActionRange(long long action) { return sp::CheckActionRange(action); }
  static void CheckLegal(const State& s, int action) { sp::CheckLegal(s, action); }
  static void ApplyAction(State& s, int action, History* h) { sp::ApplyAction(s, action, h); }
  static void CheckDealShape(const State& s, size_t count) { sp::CheckDealShape(s, count); }
  static void Deal(State& s, const std::vector<std::string>& factories, History* h) {
    sp::Deal(s, factories, h);
  }

  static int ObservationSize(int players) { return sp::ObservationSize(players); }
  static void Observation(const State& s, int player, float* out) {
    sp::Observation(s, player, out);
  }
  static uint64_t RandomPlayouts(int n, int players, Variant, uint64_t seed, int threads,
                                 int32_t* out, StopCheck stop,
                                 Policy policy = Policy::kUniform) {
    return sp::RandomPlayouts(n, players, seed, threads, out, stop, policy);
  }
  static uint64_t PlayoutsFrom(const State& s, int n, uint64_t seed, int threads, int32_t* out,
                               StopCheck stop, Policy policy = Policy::kUniform) {
    return sp::PlayoutsFrom(s, n, seed, threads, out, stop, policy);
  }

  static std::string ToText(const State& s, const History* h) { return sp::ToText(s, h); }
  static State FromText(const std::string& text, History* h) { return sp::FromText(text, h); }
  static std::string RecordJson(const State& s, const History& h) { return sp::RecordJson(s, h); }
  static std::string ScoreSheetJson(const State& s, const History& h) {
    return sp::ScoreSheetJson(s, h);
  }
  static std::vector<int> Winners(const State& s) { return sp::Winners(s); }
};

// The one variant switch: f(ClassicRules{}) for classic and grey, f(PavilionRules{}) for Summer
// Pavilion; both calls must return the same type.
template <typename F>
decltype(auto) WithRules(Variant variant, F&& f) {
  if (variant == kSummerPavilion) return f(PavilionRules{});
  return f(ClassicRules{});
}

// The legal actions of `s` as R::kNumActions flags (legal_action_mask), written whole.
template <typename R>
void LegalActionMask(const typename R::State& s, bool* mask) {
  int16_t buf[R::kNumActions + kLegalScratch];
  const int n = R::LegalActions(s, buf);
  for (int a = 0; a < R::kNumActions; ++a) mask[a] = false;
  for (int i = 0; i < n; ++i) mask[buf[i]] = true;
}

// The rules a state text is read with (variant.cpp): kSummerPavilion for a text of variant
// summer-pavilion, else kClassic (classic and grey: ClassicRules::FromText reads which).  Checks
// the text's version first: throws StateFormatError for text that is no azul-state/1.
Variant TextRules(const std::string& text);

// The index in kVariantNames of a variant's name, or -1.
int VariantIndex(const std::string& name);

}  // namespace azul
