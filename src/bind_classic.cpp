// pybind11 bindings of classic and grey-wall Azul: the GameState class.  Only conversions: each
// entry forwards to native/src/classic/ (through ClassicRules where the variants share a name).
#include <string>
#include <vector>

#include "azul/classic/notation.h"
#include "azul/classic/observation.h"
#include "azul/classic/text.h"
#include "bindings.h"

namespace azul {
namespace bind {

namespace {

std::vector<std::string> Factories(const State& s) {
  std::vector<std::string> out;
  for (int f = 0; f < s.num_factories; ++f) out.push_back(TilesToStr(s.factories[f]));
  return out;
}

int MoveToAction(const Game& g, const py::handle& move) {
  if (py::isinstance<py::str>(move)) return StringToAction(g.s, Utf8(move));
  return ToAction<ClassicRules>(move);
}

}  // namespace

void BindClassic(py::module_& m) {
  py::class_<Game>(m, "GameState")
      .def(py::init([](const py::args&, const py::kwargs&) -> Game {
        throw py::type_error(kGameHint);
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
      .def_property_readonly("centre", [](const Game& g) { return TilesToStr(g.s.centre); })
      .def_property_readonly("center", [](const Game& g) { return TilesToStr(g.s.centre); })  // alias
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
      .def("__reduce__", [m](const Game& g) {  // every protocol: from_text(text with history)
        return py::make_tuple(m.attr("from_text"), py::make_tuple(ToText(g.s, &g.h)));
      })
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
        return ActionToString(g.s, IdToName<ClassicRules>(a));
      }, py::arg("action"))
      .def("string_to_action", [](const Game& g, const py::object& text) {
        if (!py::isinstance<py::str>(text))
          throw py::type_error("a move is an action id (int) or a notation string, not " +
                               TypeName(text));
        return StringToAction(g.s, Utf8(text));
      }, py::arg("text"))
      .def("apply", [](Game& g, const py::object& move) {
        int action = MoveToAction(g, move);
        CheckLegal(g.s, action);
        PlayChecked(g, action);
      }, py::arg("move"))
      .def("undo", &UndoPy<ClassicRules>)
      .def("key", &KeyPy<ClassicRules>)
      .def("__hash__", &HashPy<ClassicRules>)
      .def("deal", &DealPy<ClassicRules>, py::arg("factories"))
      .def("reseed", &ReseedPy<ClassicRules>, py::arg("seed"))
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
      .def("legal_action_mask", &LegalMask<ClassicRules>);
}

}  // namespace bind
}  // namespace azul
