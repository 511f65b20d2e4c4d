// pybind11 bindings of the C++ engine as azul_engine._cppengine.  No rules here: each entry
// forwards to native/ and only converts Python values; the pure twin is _pyengine.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <random>
#include <string>
#include <vector>

#include "azul/notation.h"
#include "azul/observation.h"
#include "azul/pavilion.h"
#include "azul/playout.h"
#include "azul/state.h"
#include "azul/text.h"
#include "azul/vector.h"

namespace py = pybind11;
using namespace azul;

namespace {

// A game as Python sees it: the position and its history.
struct Game {
  State s;
  History h;
};

// A game of Summer Pavilion (PavilionState).
struct PGame {
  sp::State s;
  sp::History h;
};

std::string TypeName(const py::handle& obj) {
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

// Python truth, as `if history:` in the pure engine.
bool Truthy(const py::handle& obj) {
  const int truth = PyObject_IsTrue(obj.ptr());
  if (truth < 0) throw py::error_already_set();
  return truth != 0;
}

// A str as UTF-8; lone surrogates pass through (as the pure engine reads any str).
std::string Utf8(const py::handle& obj) {
  PyObject* bytes = PyUnicode_AsEncodedString(obj.ptr(), "utf-8", "surrogatepass");
  if (!bytes) throw py::error_already_set();
  std::string out(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)));
  Py_DECREF(bytes);
  return out;
}

// Python's own repr() of non-ASCII text, for messages (installed as PyRepr's hook).
std::string ReprHookImpl(const std::string& utf8) {
  py::gil_scoped_acquire gil;
  PyObject* text = PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()),
                                        "surrogatepass");
  if (!text) {
    PyErr_Clear();
    return "'" + utf8 + "'";
  }
  py::object repr = py::reinterpret_steal<py::object>(PyObject_Repr(text));
  Py_DECREF(text);
  if (!repr) {
    PyErr_Clear();
    return "'" + utf8 + "'";
  }
  return Utf8(repr);
}

// An action id from an int-like (ints, numpy integers); bools and other types are TypeErrors.
int ToAction(const py::handle& obj, int num_actions = kNumActions) {
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr()))
    throw py::type_error("a move is an action id (int) or a notation string, not " +
                         TypeName(obj));
  py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(obj.ptr()));
  if (!value) throw py::error_already_set();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow)
    throw IllegalMove("action " + std::string(py::str(value)) + " is out of range 0-" +
                      std::to_string(num_actions - 1));
  return num_actions == kNumActions ? CheckActionRange(v) : sp::CheckActionRange(v);
}

int MoveToAction(const Game& g, const py::handle& move) {
  if (py::isinstance<py::str>(move)) return StringToAction(g.s, move.cast<std::string>());
  return ToAction(move);
}

uint64_t ToSeed(const py::handle& obj) {
  if (PyBool_Check(obj.ptr()) || !PyLong_Check(obj.ptr()))
    throw py::type_error("seed must be an int, not " + TypeName(obj));
  int overflow = 0;
  long long small = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (!overflow && small < 0)
    throw py::value_error("seed must be in 0..2**64-1, got " + std::to_string(small));
  unsigned long long v = PyLong_AsUnsignedLongLong(obj.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    throw py::value_error("seed must be in 0..2**64-1, got " + std::string(py::str(obj)));
  }
  return v;
}

constexpr int kPavilion = 2;  // VARIANTS index of summer-pavilion
const char* const kAllVariants[3] = {"classic", "grey", "summer-pavilion"};

// The index in VARIANTS of a variant name, or -1 (any object: `variant in VARIANTS`).
int VariantIndex(const py::handle& variant) {
  if (!py::isinstance<py::str>(variant)) return -1;
  const std::string name = Utf8(variant);
  for (int i = 0; i < 3; ++i)
    if (name == kAllVariants[i]) return i;
  return -1;
}

// new_game's arguments, checked in the pure engine's order.
struct NewGameArgs {
  int players;
  int variant;
  bool explicit_chance;
  uint64_t seed;
};

NewGameArgs CheckNewGame(const py::object& players, const py::object& variant,
                         const py::object& seed, const py::object& chance) {
  if (PyBool_Check(players.ptr()) || !PyLong_Check(players.ptr()))
    throw py::type_error("players must be an int, not " + TypeName(players));
  long long n = PyLong_AsLongLong(players.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    n = 0;
  }
  if (n < 2 || n > 4)
    throw py::value_error("players must be 2, 3 or 4, got " + std::string(py::str(players)));
  const int v = VariantIndex(variant);
  if (v < 0)
    throw py::value_error("unknown variant " + Utf8(py::repr(variant)) +
                          " (variants: classic, grey, summer-pavilion)");
  const bool is_str = py::isinstance<py::str>(chance);
  const std::string mode = is_str ? Utf8(chance) : std::string();
  if (!is_str || (mode != "sampled" && mode != "explicit"))
    throw py::value_error("chance must be 'sampled' or 'explicit', got " + Utf8(py::repr(chance)));
  uint64_t seed_value;
  if (seed.is_none()) {
    std::random_device rd;
    seed_value = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  } else {
    seed_value = ToSeed(seed);
  }
  return {static_cast<int>(n), v, mode == "explicit", seed_value};
}

py::object MakeGame(const py::object& players, const py::object& variant, const py::object& seed,
                    const py::object& chance) {
  const NewGameArgs a = CheckNewGame(players, variant, seed, chance);
  if (a.variant == kPavilion) {
    PGame g;
    g.s = sp::NewGame(a.players, a.seed, a.explicit_chance, &g.h);
    return py::cast(std::move(g));
  }
  Game g;
  g.s = NewGame(a.players, static_cast<Variant>(a.variant), a.seed, a.explicit_chance, &g.h);
  return py::cast(std::move(g));
}

// The seat an observation tensor is for: `player`, or (None) the player to move, seat 0 at a
// chance node or once over.
int Observer(const py::object& player, int turn, int players) {
  if (player.is_none()) return turn >= 0 ? turn : 0;
  if (PyBool_Check(player.ptr()) || !PyLong_Check(player.ptr()))
    throw py::type_error("player must be an int, not " + TypeName(player));
  const long long p = PyLong_AsLongLong(player.ptr());
  if (PyErr_Occurred() || p < 0 || p >= players) {
    PyErr_Clear();
    throw py::value_error("player " + std::string(py::str(player)) + " does not exist with " +
                          std::to_string(players) + " players");
  }
  return static_cast<int>(p);
}

std::vector<std::string> Factories(const State& s) {
  std::vector<std::string> out;
  for (int f = 0; f < s.num_factories; ++f) out.push_back(TilesToStr(s.factories[f]));
  return out;
}

Game FromTextGame(const std::string& text) {
  Game g;
  g.s = FromText(text, &g.h);
  return g;
}

PGame FromTextPavilion(const py::object& text) {
  if (!py::isinstance<py::str>(text))
    throw py::type_error("state text must be a str, not " + TypeName(text));
  PGame g;
  g.s = sp::FromText(Utf8(text), &g.h);
  return g;
}

// from_text: a GameState, or a PavilionState for a text of variant summer-pavilion.
py::object FromTextAny(const py::object& text) {
  if (!py::isinstance<py::str>(text))
    throw py::type_error("state text must be a str, not " + TypeName(text));
  const std::string t = Utf8(text);
  const std::vector<std::string> tokens = PySplit(t);
  const std::string version = "azul-state/" + std::to_string(kTextVersion);
  if (tokens.empty() || tokens[0].compare(0, 11, "azul-state/") != 0)
    throw StateFormatError("not an Azul state: the text must start with " + version);
  if (tokens[0] != version)
    throw StateFormatError("unsupported state text version " + PyRepr(tokens[0]) +
                           " (this engine reads " + version + ")");
  for (const std::string& token : tokens)
    if (token == "variant=summer-pavilion") {
      PGame g;
      g.s = sp::FromText(t, &g.h);
      return py::cast(std::move(g));
    }
  return py::cast(FromTextGame(t));
}

void DealPavilion(PGame& g, const py::object& factories) {
  sp::CheckDealPhase(g.s);
  py::list items = py::isinstance<py::str>(factories) ? py::list() : py::list(factories);
  const int nf = g.s.num_factories;
  if (static_cast<int>(items.size()) != nf)
    throw IllegalMove("deal: " + std::to_string(g.s.players) + " players need " +
                      std::to_string(nf) + " factory strings");
  std::vector<std::string> strings;
  for (size_t i = 0; i < items.size(); ++i) {
    if (!py::isinstance<py::str>(items[i]))
      throw IllegalMove("deal: factory " + std::to_string(i + 1) + " is not a string");
  }
  for (size_t i = 0; i < items.size(); ++i) strings.push_back(Utf8(items[i]));
  sp::Deal(g.s, strings, &g.h);
}

void DealSupplyPavilion(PGame& g, const py::object& tiles) {
  if (!py::isinstance<py::str>(tiles))
    throw IllegalMove("deal_supply: tiles are a string of colour letters, not " + TypeName(tiles));
  int counts[sp::kColours];
  sp::ParseTiles(Utf8(tiles), "deal_supply", counts, true);
  sp::DealSupply(g.s, counts, &g.h);
}

void ApplyPavilion(PGame& g, const py::object& move) {
  int action;
  if (py::isinstance<py::str>(move)) {
    int counts[sp::kColours];
    action = sp::ParseMove(Utf8(move), counts);
    if (action < 0) {
      sp::DealSupply(g.s, counts, &g.h);
      return;
    }
  } else {
    action = ToAction(move, sp::kNumActions);
  }
  sp::CheckLegal(g.s, action);
  sp::Play(g.s, action, &g.h);
}


void DealGame(Game& g, const py::object& factories) {
  std::vector<std::string> strings;
  if (py::isinstance<py::str>(factories)) {
    CheckDealShape(g.s, 0);
  }
  py::list items(factories);
  CheckDealShape(g.s, items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    if (!py::isinstance<py::str>(items[i]))
      throw IllegalMove("deal: factory " + std::to_string(i + 1) + " is not a string");
    strings.push_back(items[i].cast<std::string>());
  }
  Deal(g.s, strings, &g.h);
}

py::dict EndBonusOf(const py::object& wall, const py::object& variant) {
  std::vector<std::string> rows;
  if (py::isinstance<py::str>(wall)) {
    rows = WallRows(wall.cast<std::string>());
  } else {
    for (const py::handle& row : wall)
      rows.push_back(py::isinstance<py::str>(row) ? row.cast<std::string>() : std::string());
  }
  bool shape = rows.size() == 5;
  for (const std::string& row : rows) shape = shape && row.size() == 5;
  if (!shape) throw StateFormatError("wall: not 5 rows of 5 cells (colour letters or '.')");
  bool classic = false;
  if (!variant.is_none()) {
    std::string name = py::isinstance<py::str>(variant) ? variant.cast<std::string>() : "";
    if (name != "classic" && name != "grey")
      throw py::value_error("unknown variant " + Utf8(py::repr(variant)) +
                            " (variants with a wall: classic, grey)");
    classic = name == "classic";
  }
  int8_t cells[25];
  ParseWall(rows, classic, "wall", cells);
  int r, c, k;
  WallBonus(cells, &r, &c, &k);
  py::dict out;
  out["rows"] = r;
  out["columns"] = c;
  out["colours"] = k;
  out["points"] = 2 * r + 7 * c + 10 * k;
  return out;
}

int CheckCount(const py::object& value, const char* what) {
  if (PyBool_Check(value.ptr()) || !PyLong_Check(value.ptr()))
    throw py::type_error(std::string(what) + " must be an int, not " + TypeName(value));
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (!overflow && v < 0)
    throw py::value_error(std::string(what) + " must be 0 or more, got " + std::to_string(v));
  if (overflow || v > (1LL << 30))
    throw py::value_error(std::string(what) + " is too large: " + std::string(py::str(value)));
  return static_cast<int>(v);
}

// The scores, or (scores, plies) for the bench.
py::object Playouts(uint64_t plies, py::array_t<int32_t> out, bool with_plies) {
  if (with_plies) return py::make_tuple(out, plies);
  return out;
}

py::object RandomPlayoutsPy(const py::object& n_obj, const py::object& players,
                            const py::object& variant, const py::object& seed,
                            const py::object& threads_obj, bool with_plies) {
  const int n = CheckCount(n_obj, "n");
  const int threads = CheckCount(threads_obj, "threads");
  const uint64_t seed_value = ToSeed(seed);
  // checks players and variant before any work
  const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
  const int p = a.players;
  py::array_t<int32_t> out({n, p});
  int32_t* data = out.mutable_data();
  uint64_t plies;
  {
    py::gil_scoped_release release;
    if (a.variant == kPavilion)
      plies = sp::RandomPlayouts(n, p, seed_value, threads, data);
    else
      plies = RandomPlayouts(n, p, static_cast<Variant>(a.variant), seed_value, threads, data);
  }
  return Playouts(plies, out, with_plies);
}

py::object PlayoutsFromPy(const py::object& state, const py::object& n_obj, const py::object& seed,
                          const py::object& threads_obj, bool with_plies) {
  const bool pavilion = py::isinstance<PGame>(state);
  if (!pavilion && !py::isinstance<Game>(state))
    throw py::type_error("state must be a GameState or PavilionState of this engine, not " +
                         TypeName(state));
  const int n = CheckCount(n_obj, "n");
  const int threads = CheckCount(threads_obj, "threads");
  const uint64_t seed_value = ToSeed(seed);
  if (pavilion) {
    const sp::State start = state.cast<const PGame&>().s;
    py::array_t<int32_t> out({n, static_cast<int>(start.players)});
    int32_t* data = out.mutable_data();
    uint64_t plies;
    {
      py::gil_scoped_release release;
      plies = sp::PlayoutsFrom(start, n, seed_value, threads, data);
    }
    return Playouts(plies, out, with_plies);
  }
  const State start = state.cast<const Game&>().s;
  py::array_t<int32_t> out({n, static_cast<int>(start.players)});
  int32_t* data = out.mutable_data();
  uint64_t plies;
  {
    py::gil_scoped_release release;
    plies = PlayoutsFrom(start, n, seed_value, threads, data);
  }
  return Playouts(plies, out, with_plies);
}

VectorGame* MakeVector(const py::object& n_obj, const py::object& players, const py::object& variant,
                       const py::object& seed) {
  const int n = CheckCount(n_obj, "n");
  const uint64_t seed_value = ToSeed(seed);
  const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
  return new VectorGame(n, a.players, a.variant, seed_value);
}

// Holds a VectorGame's one-caller-at-a-time flag for a step or a reset.
class Busy {
 public:
  explicit Busy(VectorGame& v) : v_(v) {
    if (!v_.Acquire())
      throw py::value_error("VectorGame is busy: another thread is stepping or resetting it");
  }
  ~Busy() { v_.Release(); }

 private:
  VectorGame& v_;
};

// A read-only numpy view of memory owned by the VectorGame `self`, which it keeps alive.
template <typename T>
py::array View(const py::object& self, T* data, std::vector<py::ssize_t> shape) {
  py::array_t<T> view(shape, data, self);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(view);
}

py::tuple StepVector(const py::object& self, const py::object& actions_obj) {
  VectorGame& v = self.cast<VectorGame&>();
  py::array actions = py::module_::import("numpy").attr("asarray")(actions_obj);
  const char kind = actions.dtype().kind();
  if (actions.ndim() != 1 || actions.shape(0) != v.size() || (kind != 'i' && kind != 'u'))
    throw py::value_error("actions must be " + std::to_string(v.size()) + " integers, got shape " +
                          std::string(py::str(actions.attr("shape"))) + " of " +
                          std::string(py::str(actions.dtype())));
  auto values = py::array_t<int64_t, py::array::c_style | py::array::forcecast>::ensure(actions);
  // A private copy: the caller's array may be the same memory, which another thread could change
  // between the check and the GIL-free apply.
  const std::vector<int64_t> copy(values.data(), values.data() + v.size());
  const int64_t* data = copy.data();
  Busy busy(v);
  v.Check(data);
  {
    py::gil_scoped_release release;
    v.Apply(data);
  }
  return py::make_tuple(self.attr("legal_mask"), self.attr("current_player"), self.attr("scores"),
                        self.attr("done"));
}

}  // namespace

PYBIND11_MODULE(_cppengine, m) {
  m.doc() = "The C++ Azul engine; the same API and behaviour as azul_engine._pyengine.";

  py::module_ errors = py::module_::import("azul_engine._errors");
  // Kept alive for the translator below for the life of the interpreter.
  static py::handle illegal_move = py::object(errors.attr("IllegalMoveError")).release();
  static py::handle state_format = py::object(errors.attr("StateFormatError")).release();
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IllegalMove& e) {
      PyErr_SetString(illegal_move.ptr(), e.what());
    } catch (const StateFormatError& e) {
      PyErr_SetString(state_format.ptr(), e.what());
    }
  });
  m.attr("IllegalMoveError") = illegal_move;
  m.attr("StateFormatError") = state_format;
  m.attr("COLOURS") = std::string(kColourLetters);
  SetReprHook(&ReprHookImpl);
  m.attr("VARIANTS") = py::make_tuple("classic", "grey", "summer-pavilion");
  m.attr("NUM_ACTIONS") = kNumActions;
  m.attr("NUM_DRAFT_ACTIONS") = kNumDraftActions;
  m.attr("TILE_ACTION_BASE") = kTileActionBase;
  m.attr("DRAW_ACTION_BASE") = kDrawActionBase;
  m.attr("FIRST_PLAYER_ACTION_BASE") = kFirstPlayerActionBase;
  m.attr("CHANCE") = kChance;
  m.attr("TEXT_VERSION") = kTextVersion;
  m.attr("SP_COLOURS") = std::string(sp::kColourLetters);
  m.attr("SP_STARS") = std::string(sp::kStarLetters);
  {
    py::list keeps;
    for (int k = 0; k < sp::kNumKeepSets; ++k) keeps.append(sp::TilesToStr(sp::KeepSets()[k]));
    m.attr("SP_KEEP_SETS") = py::tuple(keeps);
  }
  m.attr("SP_NUM_ACTIONS") = sp::kNumActions;
  m.attr("SP_PLACE_ACTION_BASE") = sp::kPlaceActionBase;
  m.attr("SP_BONUS_ACTION_BASE") = sp::kBonusActionBase;
  m.attr("SP_PASS_ACTION_BASE") = sp::kPassActionBase;
  m.attr("SP_DRAW_ACTION_BASE") = sp::kDrawActionBase;
  m.attr("SP_FIRST_PLAYER_ACTION_BASE") = sp::kFirstPlayerActionBase;

  py::class_<Game>(m, "GameState")
      .def(py::init([]() -> Game {
        throw py::type_error("use azul_engine.new_game(...) or GameState.from_text(text)");
      }))
      .def_property_readonly("players", [](const Game& g) { return int(g.s.players); })
      .def_property_readonly("variant", [](const Game& g) { return kVariantNames[g.s.variant]; })
      .def_property_readonly("seed", [](const Game& g) { return g.s.seed; })
      .def_property_readonly("round", [](const Game& g) { return g.s.round; })
      .def_property_readonly("chance_mode", [](const Game& g) {
        return g.s.explicit_chance ? "explicit" : "sampled";
      })
      .def_property_readonly("phase", [](const Game& g) { return kPhaseNames[g.s.phase]; })
      .def_property_readonly("current_player", [](const Game& g) { return int(g.s.turn); })
      .def_property_readonly("starting_player", [](const Game& g) { return int(g.s.start); })
      .def_property_readonly("is_over", [](const Game& g) { return g.s.phase == kOver; })
      .def_property_readonly("is_chance_node", [](const Game& g) {
        return g.s.phase == kFirstPlayer || g.s.phase == kFill;
      })
      .def_property_readonly("scores", [](const Game& g) {
        std::vector<int> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(g.s.board[p].score);
        return out;
      })
      .def_property_readonly("factories", [](const Game& g) { return Factories(g.s); })
      .def_property_readonly("center", [](const Game& g) { return TilesToStr(g.s.centre); })
      .def_property_readonly("bag", [](const Game& g) { return TilesToStr(g.s.bag); })
      .def_property_readonly("lid", [](const Game& g) { return TilesToStr(g.s.lid); })
      .def_property_readonly("first_player_marker", [](const Game& g) { return int(g.s.marker); })
      .def_property_readonly("moves_this_round", [](const Game& g) { return g.s.moves; })
      .def_property_readonly("pattern_lines", [](const Game& g) {
        std::vector<std::vector<std::string>> out(g.s.players);
        for (int p = 0; p < g.s.players; ++p)
          for (int r = 0; r < 5; ++r) out[p].push_back(LineText(g.s.board[p], r));
        return out;
      })
      .def_property_readonly("walls", [](const Game& g) {
        std::vector<std::vector<std::string>> out(g.s.players);
        for (int p = 0; p < g.s.players; ++p)
          for (int r = 0; r < 5; ++r) out[p].push_back(WallRow(g.s.board[p], r));
        return out;
      })
      .def_property_readonly("floors", [](const Game& g) {
        std::vector<std::string> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(FloorText(g.s, p));
        return out;
      })
      .def_property_readonly("pending_row", [](const Game& g) {
        return g.s.phase == kTiling ? PendingRow(g.s, g.s.turn) : -1;
      })
      .def_property_readonly("winners", [](const Game& g) { return Winners(g.s); })
      .def("clone", [](const Game& g) { return g; })
      .def("__copy__", [](const Game& g) { return g; })
      .def("__deepcopy__", [](const Game& g, py::object) { return g; })
      .def("__eq__", [](const Game& a, const Game& b) { return a.s == b.s; }, py::is_operator())
      .def(py::pickle([](const Game& g) { return ToText(g.s, &g.h); },
                      [](const std::string& text) { return FromTextGame(text); }))
      .def("__repr__", [](const Game& g) { return "GameState.from_text(" + PyRepr(ToText(g.s, nullptr)) + ")"; })
      .def("__str__", [](const Game& g) { return BoardText(g.s); })
      .def("legal_actions", [](const Game& g) { return LegalActionList(g.s); })
      .def("legal_moves", [](const Game& g) {
        std::vector<std::string> out;
        for (int a : LegalActionList(g.s)) out.push_back(ActionToString(g.s, a));
        return out;
      })
      .def("chance_outcomes", [](const Game& g) { return ChanceOutcomes(g.s); })
      .def("action_to_string", [](const Game& g, const py::object& a) {
        return ActionToString(g.s, ToAction(a));
      })
      .def("string_to_action", [](const Game& g, const py::object& text) {
        if (!py::isinstance<py::str>(text))
          throw py::type_error("a move is an action id (int) or a notation string, not " +
                               TypeName(text));
        return StringToAction(g.s, text.cast<std::string>());
      })
      .def("apply", [](Game& g, const py::object& move) {
        int action = MoveToAction(g, move);
        CheckLegal(g.s, action);
        ApplyAction(g.s, action, &g.h);
      })
      .def("deal", &DealGame)
      .def("reseed", [](Game& g, const py::object& seed) {
        g.s.rng = ToSeed(seed);
        g.h.seed_known = false;
      })
      .def("to_text", [](const Game& g, const py::object& history) {
        return ToText(g.s, Truthy(history) ? &g.h : nullptr);
      }, py::arg("history") = false)
      .def_static("from_text", &FromTextAny, py::arg("text"))
      .def("record", [](const Game& g) {
        return py::module_::import("json").attr("loads")(RecordJson(g.s, g.h));
      })
      .def("record_json", [](const Game& g) { return RecordJson(g.s, g.h); })
      .def("score_sheet", [](const Game& g) {
        return py::module_::import("json").attr("loads")(ScoreSheetJson(g.s, g.h));
      })
      .def("score_if_round_ended", [](const Game& g) { return ScoreIfRoundEnded(g.s); })
      .def("observation_tensor", [](const Game& g, const py::object& player) {
        const int observer = Observer(player, g.s.turn, g.s.players);
        py::array_t<float> out(ObservationSize(g.s.players));
        Observation(g.s, observer, out.mutable_data());
        return out;
      }, py::arg("player") = py::none())
      .def("legal_action_mask", [](const Game& g) {
        py::array_t<bool> mask(kNumActions);
        bool* data = mask.mutable_data();
        std::fill(data, data + kNumActions, false);
        int16_t buf[kNumActions];
        const int n = LegalActions(g.s, buf);
        for (int i = 0; i < n; ++i) data[buf[i]] = true;
        return mask;
      });

  py::class_<PGame>(m, "PavilionState")
      .def(py::init([](const py::args& args, const py::kwargs& kwargs) -> PGame {
        // As the pure engine's __init__(self): its signature errors first, then the hint.
        if (kwargs.size())
          throw py::type_error("PavilionState.__init__() got an unexpected keyword argument " +
                               Utf8(py::repr(kwargs.begin()->first)));
        if (args.size())
          throw py::type_error("PavilionState.__init__() takes 1 positional argument but " +
                               std::to_string(args.size() + 1) + " were given");
        throw py::type_error(
            "use azul_engine.new_game(..., variant='summer-pavilion') or from_text(text)");
      }))
      .def_property_readonly("players", [](const PGame& g) { return int(g.s.players); })
      .def_property_readonly("variant", [](const PGame&) { return "summer-pavilion"; })
      .def_property_readonly("seed", [](const PGame& g) { return g.s.seed; })
      .def_property_readonly("round", [](const PGame& g) { return int(g.s.round); })
      .def_property_readonly("chance_mode", [](const PGame& g) {
        return g.s.explicit_chance ? "explicit" : "sampled";
      })
      .def_property_readonly("phase", [](const PGame& g) { return sp::kPhaseNames[g.s.phase]; })
      .def_property_readonly("current_player", [](const PGame& g) { return int(g.s.turn); })
      .def_property_readonly("starting_player", [](const PGame& g) { return int(g.s.start); })
      .def_property_readonly("is_over", [](const PGame& g) { return g.s.phase == sp::kOver; })
      .def_property_readonly("is_chance_node", [](const PGame& g) {
        return g.s.phase == sp::kFirstPlayer || g.s.phase == sp::kFill;
      })
      .def_property_readonly("scores", [](const PGame& g) {
        return std::vector<int>(g.s.score, g.s.score + g.s.players);
      })
      .def_property_readonly("factories", [](const PGame& g) {
        std::vector<std::string> out;
        for (int f = 0; f < g.s.num_factories; ++f) out.push_back(sp::TilesToStr(g.s.factories[f]));
        return out;
      })
      .def_property_readonly("center", [](const PGame& g) { return sp::TilesToStr(g.s.centre); })
      .def_property_readonly("supply", [](const PGame& g) { return sp::TilesToStr(g.s.supply); })
      .def_property_readonly("bag", [](const PGame& g) { return sp::TilesToStr(g.s.bag); })
      .def_property_readonly("tower", [](const PGame& g) { return sp::TilesToStr(g.s.tower); })
      .def_property_readonly("lid", [](const PGame& g) { return sp::TilesToStr(g.s.tower); })
      .def_property_readonly("wild", [](const PGame& g) {
        return std::string(1, sp::kColourLetters[std::min<int>(g.s.round, sp::kRounds) - 1]);
      })
      .def_property_readonly("first_player_marker", [](const PGame& g) { return int(g.s.marker); })
      .def_property_readonly("moves_this_round", [](const PGame& g) { return g.s.moves; })
      .def_property_readonly("hands", [](const PGame& g) {
        std::vector<std::string> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(sp::TilesToStr(g.s.hand[p]));
        return out;
      })
      .def_property_readonly("passed", [](const PGame& g) {
        std::vector<bool> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(g.s.passed[p] != 0);
        return out;
      })
      .def_property_readonly("bonus_owed", [](const PGame& g) { return int(g.s.owed); })
      .def_property_readonly("boards", [](const PGame& g) {
        std::vector<std::vector<std::string>> out;
        for (int p = 0; p < g.s.players; ++p) out.push_back(sp::BoardStrings(g.s, p));
        return out;
      })
      .def_property_readonly("winners", [](const PGame& g) { return sp::Winners(g.s); })
      .def("clone", [](const PGame& g) { return g; })
      .def("__copy__", [](const PGame& g) { return g; })
      .def("__deepcopy__", [](const PGame& g, py::object) { return g; })
      .def("__eq__", [](const PGame& a, const PGame& b) { return a.s == b.s; }, py::is_operator())
      .def(py::pickle([](const PGame& g) { return sp::ToText(g.s, &g.h); },
                      [](const std::string& text) {
                        PGame g;
                        g.s = sp::FromText(text, &g.h);
                        return g;
                      }))
      .def("__repr__", [](const PGame& g) {
        return "from_text(" + PyRepr(sp::ToText(g.s, nullptr)) + ")";
      })
      .def("__str__", [](const PGame& g) { return sp::BoardText(g.s); })
      .def("legal_actions", [](const PGame& g) { return sp::LegalActionList(g.s); })
      .def("legal_moves", [](const PGame& g) {
        std::vector<std::string> out;
        for (int a : sp::LegalActionList(g.s)) out.push_back(sp::ActionText(a));
        return out;
      })
      .def("legal_action_mask", [](const PGame& g) {
        py::array_t<bool> mask(sp::kNumActions);
        bool* data = mask.mutable_data();
        std::fill(data, data + sp::kNumActions, false);
        int16_t buf[sp::kNumActions];
        const int n = sp::LegalActions(g.s, buf);
        for (int i = 0; i < n; ++i) data[buf[i]] = true;
        return mask;
      })
      .def("observation_tensor", [](const PGame& g, const py::object& player) {
        const int observer = Observer(player, g.s.turn, g.s.players);
        py::array_t<float> out(sp::ObservationSize(g.s.players));
        sp::Observation(g.s, observer, out.mutable_data());
        return out;
      }, py::arg("player") = py::none())
      .def("chance_outcomes", [](const PGame& g) { return sp::ChanceOutcomes(g.s); })
      .def("action_to_string", [](const PGame& g, const py::object& a) {
        (void)g;
        return sp::ActionText(ToAction(a, sp::kNumActions));
      })
      .def("string_to_action", [](const PGame& g, const py::object& text) {
        (void)g;
        if (!py::isinstance<py::str>(text))
          throw py::type_error("a move is an action id (int) or a notation string, not " +
                               TypeName(text));
        int counts[sp::kColours];
        const int action = sp::ParseMove(Utf8(text), counts);
        if (action < 0)
          throw IllegalMove(Utf8(py::repr(text)) +
                            " draws several tiles, which no single action id does; apply it as "
                            "a move or use deal_supply");
        return action;
      })
      .def("apply", &ApplyPavilion, py::arg("move"))
      .def("deal", &DealPavilion, py::arg("factories"))
      .def("deal_supply", &DealSupplyPavilion, py::arg("tiles"))
      .def("reseed", [](PGame& g, const py::object& seed) {
        g.s.rng = ToSeed(seed);
        g.h.seed_known = false;
      }, py::arg("seed"))
      .def("to_text", [](const PGame& g, const py::object& history) {
        return sp::ToText(g.s, Truthy(history) ? &g.h : nullptr);
      }, py::arg("history") = false)
      .def_static("from_text", &FromTextPavilion, py::arg("text"))
      .def("record", [](const PGame& g) {
        return py::module_::import("json").attr("loads")(sp::RecordJson(g.s, g.h));
      })
      .def("record_json", [](const PGame& g) { return sp::RecordJson(g.s, g.h); })
      .def("score_sheet", [](const PGame& g) {
        return py::module_::import("json").attr("loads")(sp::ScoreSheetJson(g.s, g.h));
      });

  m.def("new_game", &MakeGame, py::arg("players") = 2, py::arg("variant") = "classic",
        py::arg("seed") = py::none(), py::arg("chance") = "sampled");
  m.def("from_text", &FromTextAny, py::arg("text"));

  m.def("end_bonus", &EndBonusOf, py::arg("wall"), py::arg("variant") = py::none());
  m.def("observation_shape", [](const py::object& players, const py::object& variant) {
    // checks the arguments
    const NewGameArgs a = CheckNewGame(players, variant, py::int_(0), py::str("sampled"));
    if (a.variant == kPavilion) return py::make_tuple(sp::ObservationSize(a.players));
    return py::make_tuple(ObservationSize(a.players));
  }, py::arg("players"), py::arg("variant") = "classic");
  m.def("random_playouts", &RandomPlayoutsPy, py::arg("n"), py::arg("players") = 2,
        py::arg("variant") = "classic", py::arg("seed") = 0, py::arg("threads") = 0,
        py::arg("with_plies") = false);
  m.def("playouts_from", &PlayoutsFromPy, py::arg("state"), py::arg("n"), py::arg("seed") = 0,
        py::arg("threads") = 0, py::arg("with_plies") = false);
  // Private, for tests: Summer Pavilion playouts on the full State (sp::PlayRandom), the reference
  // the compact playout kernel must match game for game; returns (scores, plies).
  m.def("_sp_reference_playouts", [](const py::object& state, int n, uint64_t seed) {
    if (n < 0) throw py::value_error("n must be 0 or more");
    if (py::isinstance<PGame>(state)) {
      const sp::State start = state.cast<const PGame&>().s;
      py::array_t<int32_t> out({n, static_cast<int>(start.players)});
      const uint64_t plies = sp::ReferencePlayoutsFrom(start, n, seed, 1, out.mutable_data());
      return py::make_tuple(out, plies);
    }
    const int players = state.cast<int>();
    if (players < 2 || players > 4) throw py::value_error("players must be 2, 3 or 4");
    py::array_t<int32_t> out({n, players});
    const uint64_t plies = sp::ReferenceRandomPlayouts(n, players, seed, 1, out.mutable_data());
    return py::make_tuple(out, plies);
  }, py::arg("state"), py::arg("n"), py::arg("seed"));

  py::class_<VectorGame>(m, "VectorGame")
      .def(py::init(&MakeVector), py::arg("n"), py::arg("players") = 2,
           py::arg("variant") = "classic", py::arg("seed") = 0)
      .def_property_readonly("n", &VectorGame::size)
      .def_property_readonly("players", &VectorGame::players)
      .def_property_readonly("variant", [](const VectorGame& v) { return kAllVariants[v.variant()]; })
      .def_property_readonly("legal_mask", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, reinterpret_cast<bool*>(v.legal_mask()), {v.size(), v.num_actions()});
      })
      .def_property_readonly("legal_actions", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.legal_actions(), {v.size(), v.num_actions()});
      })
      .def_property_readonly("num_legal", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.num_legal(), {v.size()});
      })
      .def_property_readonly("current_player", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.current_player(), {v.size()});
      })
      .def_property_readonly("scores", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.scores(), {v.size(), v.players()});
      })
      .def_property_readonly("done", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, reinterpret_cast<bool*>(v.done()), {v.size()});
      })
      .def("step", &StepVector, py::arg("actions"))
      .def("observation_tensors", [](VectorGame& v) {
        Busy busy(v);
        py::array_t<float> out({v.size(), v.observation_size()});
        v.Observations(out.mutable_data());
        return out;
      })
      .def("reset", [](VectorGame& v, const py::object& indices) {
        Busy busy(v);
        if (indices.is_none()) {
          v.ResetAll();
          return;
        }
        std::vector<int> slots;
        for (const py::handle& i : indices)
          slots.push_back(py::int_(py::reinterpret_borrow<py::object>(i)).cast<int>());
        v.Reset(slots);
      }, py::arg("indices") = py::none())
      .def("state", [](VectorGame& v, int i) {
        Busy busy(v);
        if (i < 0 || i >= v.size())
          throw py::index_error("game " + std::to_string(i) + " is out of range 0-" +
                                std::to_string(v.size() - 1));
        if (v.pavilion()) {
          PGame g;
          g.s = sp::FromText(sp::ToText(v.pavilion_game(i), nullptr), &g.h);
          return py::cast(std::move(g));
        }
        return py::cast(FromTextGame(ToText(v.game(i), nullptr)));
      }, py::arg("i"));

  m.attr("__all__") = py::make_tuple(
      "GameState", "new_game", "IllegalMoveError", "StateFormatError", "COLOURS", "VARIANTS",
      "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "TILE_ACTION_BASE", "DRAW_ACTION_BASE",
      "FIRST_PLAYER_ACTION_BASE", "CHANCE", "TEXT_VERSION", "end_bonus", "random_playouts",
      "playouts_from", "VectorGame", "observation_shape", "from_text", "PavilionState",
      "SP_COLOURS", "SP_STARS", "SP_KEEP_SETS", "SP_NUM_ACTIONS", "SP_PLACE_ACTION_BASE",
      "SP_BONUS_ACTION_BASE", "SP_PASS_ACTION_BASE", "SP_DRAW_ACTION_BASE",
      "SP_FIRST_PLAYER_ACTION_BASE");
}
