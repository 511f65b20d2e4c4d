// Constants of classic and grey-wall Azul: colours, action ids, phases (rules.md sections 1-2).
// Pure-Python twin: python/azul_engine/_pure/classic/types.py.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace azul {

constexpr int kColours = 5;
constexpr char kColourLetters[] = "BYRKW";  // frozen order: blue, yellow, red, black, white
constexpr const char* kColourNames[kColours] = {"blue", "yellow", "red", "black", "white"};
constexpr int kTilesPerColour = 20;
constexpr int kFloorSpaces = 7;
constexpr int kFloorPenalty[8] = {0, 1, 2, 4, 6, 8, 11, 14};  // cumulative, by floor items
constexpr int kMaxPlayers = 4;
// A game still going at the end of this round ends there, with end-game scoring, as a stuck game
// does (docs/decisions.md): some positions cycle for ever though a tile could still reach a
// wall, for example when the starter is forced to floor the round's only tiles each round.
constexpr int kMaxRounds = 100;
constexpr int kMaxFactories = 9;
constexpr int kCentre = 9;  // source index of the centre; factories are 0-8
constexpr int kFloor = 5;   // destination index of the floor line; pattern lines are 0-4
constexpr int kTextVersion = 1;
// How many entries past its count a legal-action lister (either variant) may overwrite.
constexpr int kLegalScratch = 8;

// Action ids: drafts (source * 5 + colour) * 6 + destination, then grey-wall columns, then the
// chance outcomes of explicit-chance mode.
constexpr int kNumDraftActions = 300;
// The grey wall's column choice for a full pattern line (Python: TILE_ACTION_BASE).
constexpr int kColumnActionBase = 300;       // 300-304: grey wall column 0-4
constexpr int kDrawActionBase = 305;         // 305-309: a tile of colour 0-4 is drawn
constexpr int kFirstPlayerActionBase = 310;  // 310-313: seat 0-3 starts round 1
constexpr int kNumActions = 314;
constexpr int kChance = -1;  // current player at a chance node and once the game is over

// Every variant the engine plays, in VARIANTS order.  Classic and grey share one set of rules
// (ClassicRules, azul/variant.h: State::variant tells them apart); Summer Pavilion has its own
// (PavilionRules, native/src/pavilion/).
enum Variant : int8_t { kClassic = 0, kGrey = 1, kSummerPavilion = 2 };
constexpr int kNumVariants = 3;
enum Phase : int8_t { kFirstPlayer = 0, kFill = 1, kOffer = 2, kTiling = 3, kOver = 4 };
constexpr const char* kVariantNames[kNumVariants] = {"classic", "grey", "summer-pavilion"};
constexpr const char* kPhaseNames[5] = {"first-player", "fill", "offer", "tiling", "over"};

inline int NumFactories(int players) { return 2 * players + 1; }
// Column of `colour` in `row` on the coloured (classic) wall.
inline int WallColumn(int colour, int row) { return (colour + row) % 5; }

// The engine's own errors keep their message whole: message() may hold any byte, NUL included,
// where what() is a C string that stops at the first NUL.
class EngineError : public std::runtime_error {
 public:
  explicit EngineError(const std::string& what) : std::runtime_error(what), message_(what) {}
  const std::string& message() const { return message_; }

 private:
  std::string message_;
};

// A move the rules forbid; the message names the rule broken.
class IllegalMove : public EngineError {
 public:
  explicit IllegalMove(const std::string& what) : EngineError(what) {}
};

// Malformed or inconsistent state text or input data; the message names the field.
class StateFormatError : public EngineError {
 public:
  explicit StateFormatError(const std::string& what) : EngineError(what) {}
};

}  // namespace azul
