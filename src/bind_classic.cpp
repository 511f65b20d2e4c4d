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

int MoveToAction(const ClassicGame& g, const py::handle& move) {
  if (py::isinstance<py::str>(move)) return StringToAction(g.state(), Utf8(move));
  return ToAction<ClassicRules>(move);
}

}  // namespace

void BindClassic(py::module_& m) {
  py::class_<ClassicGame>(m, "GameState")
      .def(py::init([](const py::args&, const py::kwargs&) -> ClassicGame {
        throw py::type_error(kGameHint);
      }))
      .def_property_readonly("players", [](const ClassicGame& g) { return int(g.state().players); })
      .def_property_readonly("variant", [](const ClassicGame& g) { return kVariantNames[g.state().variant]; })
      .def_property_readonly("seed", [](const ClassicGame& g) { return g.state().seed; })
      .def_property_readonly("round", [](const ClassicGame& g) { return g.state().round; })
      .def_property_readonly("chance_mode", [](const ClassicGame& g) {
        return g.state().explicit_chance ? "explicit" : "sampled";
      })
      .def_property_readonly("phase", [](const ClassicGame& g) { return kPhaseNames[g.state().phase]; })
      .def_property_readonly("current_player", [](const ClassicGame& g) { return int(g.state().turn); })
      .def_property_readonly("starting_player", [](const ClassicGame& g) { return int(g.state().start); })
      .def_property_readonly("is_over", &ClassicGame::IsOver)
      .def_property_readonly("is_chance_node", &ClassicGame::IsChanceNode)
      .def_property_readonly("scores", [](const ClassicGame& g) {
        std::vector<int> out;
        for (int p = 0; p < g.state().players; ++p) out.push_back(g.state().board[p].score);
        return out;
      })
      .def_property_readonly("factories", [](const ClassicGame& g) { return Factories(g.state()); })
      .def_property_readonly("centre", [](const ClassicGame& g) { return TilesToStr(g.state().centre); })
      .def_property_readonly("center", [](const ClassicGame& g) { return TilesToStr(g.state().centre); })  // alias
      .def_property_readonly("bag", [](const ClassicGame& g) { return TilesToStr(g.state().bag); })
      .def_property_readonly("lid", [](const ClassicGame& g) { return TilesToStr(g.state().lid); })
      .def_property_readonly("first_player_marker", [](const ClassicGame& g) { return int(g.state().marker); })
      .def_property_readonly("moves_this_round", [](const ClassicGame& g) { return g.state().moves; })
      .def_property_readonly("pattern_lines", [](const ClassicGame& g) {
        std::vector<std::vector<std::string>> out(g.state().players);
        for (int p = 0; p < g.state().players; ++p)
          for (int r = 0; r < 5; ++r) out[p].push_back(LineText(g.state().board[p], r));
        return out;
      })
      .def_property_readonly("walls", [](const ClassicGame& g) {
        std::vector<std::vector<std::string>> out(g.state().players);
        for (int p = 0; p < g.state().players; ++p)
          for (int r = 0; r < 5; ++r) out[p].push_back(WallRow(g.state().board[p], r));
        return out;
      })
      .def_property_readonly("floors", [](const ClassicGame& g) {
        std::vector<std::string> out;
        for (int p = 0; p < g.state().players; ++p) out.push_back(FloorText(g.state(), p));
        return out;
      })
      .def_property_readonly("pending_row", [](const ClassicGame& g) {
        return g.state().phase == kTiling ? PendingRow(g.state(), g.state().turn) : -1;
      })
      .def_property_readonly("winners", [](const ClassicGame& g) { return Winners(g.state()); })
      .def("returns", [](const ClassicGame& g) { return g.Returns(); })
      .def("clone", [](const ClassicGame& g) { return g; })
      .def("__copy__", [](const ClassicGame& g) { return g; })
      .def("__deepcopy__", [](const ClassicGame& g, py::object) { return g; })
      .def("__eq__", [](const ClassicGame& a, const ClassicGame& b) { return a.state() == b.state(); }, py::is_operator())
      .def("__reduce__", [m](const ClassicGame& g) {  // every protocol: from_text(text with history)
        return py::make_tuple(m.attr("from_text"), py::make_tuple(g.ToText(true)));
      })
      .def("__repr__", [](const ClassicGame& g) { return "GameState.from_text(" + PyRepr(ToText(g.state(), nullptr)) + ")"; })
      .def("__str__", [](const ClassicGame& g) { return BoardText(g.state()); })
      .def("legal_actions", [](const ClassicGame& g) { return LegalActionList(g.state()); })
      .def("legal_moves", [](const ClassicGame& g) {
        std::vector<std::string> out;
        for (int a : LegalActionList(g.state())) out.push_back(ActionToString(g.state(), a));
        return out;
      })
      .def("chance_outcomes", [](const ClassicGame& g) { return ChanceOutcomes(g.state()); })
      .def("action_to_string", [](const ClassicGame& g, const py::object& a) {
        return ActionToString(g.state(), IdToName<ClassicRules>(a));
      }, py::arg("action"))
      .def("string_to_action", [](const ClassicGame& g, const py::object& text) {
        if (!py::isinstance<py::str>(text))
          throw py::type_error("a move is an action id (int) or a notation string, not " +
                               TypeName(text));
        return StringToAction(g.state(), Utf8(text));
      }, py::arg("text"))
      .def("apply", [](ClassicGame& g, const py::object& move) {
        int action = MoveToAction(g, move);
        g.Apply(action);
      }, py::arg("move"))
      .def("undo", &ClassicGame::Undo)
      .def("key", &KeyPy<ClassicRules>)
      .def("__hash__", &HashPy<ClassicRules>)
      .def("deal", &DealPy<ClassicRules>, py::arg("factories"))
      .def("reseed", &ReseedPy<ClassicRules>, py::arg("seed"))
      .def("to_text", [](const ClassicGame& g, const py::object& history) {
        return g.ToText(Truthy(history));
      }, py::arg("history") = false)
      .def_static("from_text", &FromTextAny, py::arg("text"))
      .def("record", [](const ClassicGame& g) {
        return py::module_::import("json").attr("loads")(g.RecordJson());
      })
      .def("record_json", [](const ClassicGame& g) { return g.RecordJson(); })
      .def("score_sheet", [](const ClassicGame& g) {
        return py::module_::import("json").attr("loads")(g.ScoreSheetJson());
      })
      .def("score_if_round_ended", [](const ClassicGame& g) { return ScoreIfRoundEnded(g.state()); })
      .def("observation_tensor", [](const ClassicGame& g, const py::object& player) {
        const int observer = Observer(player, g.state().turn, g.state().players);
        py::array_t<float> out(ObservationSize(g.state().players));
        Observation(g.state(), observer, out.mutable_data());
        return out;
      }, py::arg("player") = py::none())
      .def("legal_action_mask", &LegalMask<ClassicRules>);
}

}  // namespace bind
}  // namespace azul
