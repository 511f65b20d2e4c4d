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

std::string TypeName(const py::handle& obj) {
  return py::str(py::type::handle_of(obj).attr("__name__"));
}

// An action id from an int-like (ints, numpy integers); bools and other types are TypeErrors.
int ToAction(const py::handle& obj) {
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr()))
    throw py::type_error("a move is an action id (int) or a notation string, not " +
                         TypeName(obj));
  py::int_ value = py::reinterpret_steal<py::int_>(PyNumber_Index(obj.ptr()));
  if (!value) throw py::error_already_set();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(value.ptr(), &overflow);
  if (overflow)
    throw IllegalMove("action " + std::string(py::str(value)) + " is out of range 0-" +
                      std::to_string(kNumActions - 1));
  return CheckActionRange(v);
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

Game MakeGame(const py::object& players, const std::string& variant, const py::object& seed,
              const std::string& chance) {
  if (PyBool_Check(players.ptr()) || !PyLong_Check(players.ptr()))
    throw py::type_error("players must be an int, not " + TypeName(players));
  long long n = PyLong_AsLongLong(players.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    n = 0;
  }
  if (n < 2 || n > 4)
    throw py::value_error("players must be 2, 3 or 4, got " + std::string(py::str(players)));
  int v = -1;
  for (int i = 0; i < 2; ++i)
    if (variant == kVariantNames[i]) v = i;
  if (v < 0)
    throw py::value_error("unknown variant " + PyRepr(variant) + " (variants: classic, grey)");
  if (chance != "sampled" && chance != "explicit")
    throw py::value_error("chance must be 'sampled' or 'explicit', got " + PyRepr(chance));
  uint64_t seed_value;
  if (seed.is_none()) {
    std::random_device rd;
    seed_value = (static_cast<uint64_t>(rd()) << 32) ^ rd();
  } else {
    seed_value = ToSeed(seed);
  }
  Game g;
  g.s = NewGame(static_cast<int>(n), static_cast<Variant>(v), seed_value, chance == "explicit",
                &g.h);
  return g;
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
      throw py::value_error("unknown variant " + std::string(py::repr(variant)) +
                            " (variants: classic, grey)");
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
                            const std::string& variant, const py::object& seed,
                            const py::object& threads_obj, bool with_plies) {
  const int n = CheckCount(n_obj, "n");
  const int threads = CheckCount(threads_obj, "threads");
  const uint64_t seed_value = ToSeed(seed);
  Game probe = MakeGame(players, variant, py::int_(0), "sampled");  // checks players, variant
  const int p = probe.s.players;
  py::array_t<int32_t> out({n, p});
  int32_t* data = out.mutable_data();
  uint64_t plies;
  {
    py::gil_scoped_release release;
    plies = RandomPlayouts(n, p, static_cast<Variant>(probe.s.variant), seed_value, threads, data);
  }
  return Playouts(plies, out, with_plies);
}

py::object PlayoutsFromPy(const py::object& state, const py::object& n_obj, const py::object& seed,
                          const py::object& threads_obj, bool with_plies) {
  if (!py::isinstance<Game>(state))
    throw py::type_error("state must be a GameState of this engine, not " + TypeName(state));
  const State start = state.cast<const Game&>().s;
  const int n = CheckCount(n_obj, "n");
  const int threads = CheckCount(threads_obj, "threads");
  const uint64_t seed_value = ToSeed(seed);
  py::array_t<int32_t> out({n, static_cast<int>(start.players)});
  int32_t* data = out.mutable_data();
  uint64_t plies;
  {
    py::gil_scoped_release release;
    plies = PlayoutsFrom(start, n, seed_value, threads, data);
  }
  return Playouts(plies, out, with_plies);
}

VectorGame* MakeVector(const py::object& n_obj, const py::object& players, const std::string& variant,
                       const py::object& seed) {
  const int n = CheckCount(n_obj, "n");
  const uint64_t seed_value = ToSeed(seed);
  Game probe = MakeGame(players, variant, py::int_(0), "sampled");
  return new VectorGame(n, probe.s.players, static_cast<Variant>(probe.s.variant), seed_value);
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
  const int64_t* data = values.data();
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
  m.attr("VARIANTS") = py::make_tuple("classic", "grey");
  m.attr("NUM_ACTIONS") = kNumActions;
  m.attr("NUM_DRAFT_ACTIONS") = kNumDraftActions;
  m.attr("TILE_ACTION_BASE") = kTileActionBase;
  m.attr("DRAW_ACTION_BASE") = kDrawActionBase;
  m.attr("FIRST_PLAYER_ACTION_BASE") = kFirstPlayerActionBase;
  m.attr("CHANCE") = kChance;
  m.attr("TEXT_VERSION") = kTextVersion;

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
      .def("to_text", [](const Game& g, bool history) { return ToText(g.s, history ? &g.h : nullptr); },
           py::arg("history") = false)
      .def_static("from_text", [](const py::object& text) {
        if (!py::isinstance<py::str>(text))
          throw py::type_error("state text must be a str, not " + TypeName(text));
        return FromTextGame(text.cast<std::string>());
      })
      .def("record", [](const Game& g) {
        return py::module_::import("json").attr("loads")(RecordJson(g.s, g.h));
      })
      .def("record_json", [](const Game& g) { return RecordJson(g.s, g.h); })
      .def("score_sheet", [](const Game& g) {
        return py::module_::import("json").attr("loads")(ScoreSheetJson(g.s, g.h));
      })
      .def("score_if_round_ended", [](const Game& g) { return ScoreIfRoundEnded(g.s); })
      .def("observation_tensor", [](const Game& g, const py::object& player) {
        int observer;
        if (player.is_none()) {
          observer = g.s.turn >= 0 ? g.s.turn : 0;
        } else {
          if (PyBool_Check(player.ptr()) || !PyLong_Check(player.ptr()))
            throw py::type_error("player must be an int, not " + TypeName(player));
          const long long p = PyLong_AsLongLong(player.ptr());
          if (PyErr_Occurred() || p < 0 || p >= g.s.players) {
            PyErr_Clear();
            throw py::value_error("player " + std::string(py::str(player)) + " does not exist with " +
                                  std::to_string(g.s.players) + " players");
          }
          observer = static_cast<int>(p);
        }
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

  m.def("new_game", &MakeGame, py::arg("players") = 2, py::arg("variant") = "classic",
        py::arg("seed") = py::none(), py::arg("chance") = "sampled");

  m.def("end_bonus", &EndBonusOf, py::arg("wall"), py::arg("variant") = py::none());
  m.def("observation_shape", [](const py::object& players, const std::string& variant) {
    Game probe = MakeGame(players, variant, py::int_(0), "sampled");  // checks the arguments
    return py::make_tuple(ObservationSize(probe.s.players));
  }, py::arg("players"), py::arg("variant") = "classic");
  m.def("random_playouts", &RandomPlayoutsPy, py::arg("n"), py::arg("players") = 2,
        py::arg("variant") = "classic", py::arg("seed") = 0, py::arg("threads") = 0,
        py::arg("with_plies") = false);
  m.def("playouts_from", &PlayoutsFromPy, py::arg("state"), py::arg("n"), py::arg("seed") = 0,
        py::arg("threads") = 0, py::arg("with_plies") = false);

  py::class_<VectorGame>(m, "VectorGame")
      .def(py::init(&MakeVector), py::arg("n"), py::arg("players") = 2,
           py::arg("variant") = "classic", py::arg("seed") = 0)
      .def_property_readonly("n", &VectorGame::size)
      .def_property_readonly("players", &VectorGame::players)
      .def_property_readonly("variant", [](const VectorGame& v) { return kVariantNames[v.variant()]; })
      .def_property_readonly("legal_mask", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, reinterpret_cast<bool*>(v.legal_mask()), {v.size(), kNumActions});
      })
      .def_property_readonly("legal_actions", [](py::object self) {
        VectorGame& v = self.cast<VectorGame&>();
        return View(self, v.legal_actions(), {v.size(), kNumActions});
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
        py::array_t<float> out({v.size(), ObservationSize(v.players())});
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
        return FromTextGame(ToText(v.game(i), nullptr));
      }, py::arg("i"));

  m.attr("__all__") = py::make_tuple(
      "GameState", "new_game", "IllegalMoveError", "StateFormatError", "COLOURS", "VARIANTS",
      "NUM_ACTIONS", "NUM_DRAFT_ACTIONS", "TILE_ACTION_BASE", "DRAW_ACTION_BASE",
      "FIRST_PLAYER_ACTION_BASE", "CHANCE", "TEXT_VERSION", "end_bonus", "random_playouts",
      "playouts_from", "VectorGame", "observation_shape");
}
