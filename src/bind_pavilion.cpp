// pybind11 bindings of Azul: Summer Pavilion: the PavilionState class.  Only conversions: each
// entry forwards to native/src/pavilion/ (through PavilionRules where the variants share a name).
#include <string>
#include <vector>

#include "bindings.h"

namespace azul {
namespace bind {

namespace {

PavilionGame FromTextPavilion(const py::object& text) {
  if (!py::isinstance<py::str>(text))
    throw py::type_error("state text must be a str, not " + TypeName(text));
  return PavilionGame::FromText(Utf8(text));
}

void DealSupplyPavilion(PavilionGame& g, const py::object& tiles) {
  if (!py::isinstance<py::str>(tiles))
    throw IllegalMove("deal_supply: tiles are a string of colour letters, not " + TypeName(tiles));
  int counts[sp::kColours];
  sp::ParseTiles(Utf8(tiles), "deal_supply", counts, true);
  g.DealSupply(counts);
}

void ApplyPavilion(PavilionGame& g, const py::object& move) {
  int action;
  if (py::isinstance<py::str>(move)) {
    int counts[sp::kColours];
    action = sp::ParseMove(Utf8(move), counts);
    if (action < 0) {
      g.DealSupply(counts);
      return;
    }
  } else {
    action = ToAction<PavilionRules>(move);
  }
  g.Apply(action);
}

}  // namespace

void BindPavilion(py::module_& m) {
  py::class_<PavilionGame>(m, "PavilionState")
      .def(py::init([](const py::args&, const py::kwargs&) -> PavilionGame {
        throw py::type_error(kPavilionHint);
      }))
      .def_property_readonly("players", [](const PavilionGame& g) { return int(g.state().players); })
      .def_property_readonly("variant", [](const PavilionGame&) { return "summer-pavilion"; })
      .def_property_readonly("seed", [](const PavilionGame& g) { return g.state().seed; })
      .def_property_readonly("round", [](const PavilionGame& g) { return int(g.state().round); })
      .def_property_readonly("chance_mode", [](const PavilionGame& g) {
        return g.state().explicit_chance ? "explicit" : "sampled";
      })
      .def_property_readonly("phase", [](const PavilionGame& g) { return sp::kPhaseNames[g.state().phase]; })
      .def_property_readonly("current_player", [](const PavilionGame& g) { return int(g.state().turn); })
      .def_property_readonly("starting_player", [](const PavilionGame& g) { return int(g.state().start); })
      .def_property_readonly("is_over", &PavilionGame::IsOver)
      .def_property_readonly("is_chance_node", &PavilionGame::IsChanceNode)
      .def_property_readonly("scores", [](const PavilionGame& g) {
        return std::vector<int>(g.state().score, g.state().score + g.state().players);
      })
      .def_property_readonly("factories", [](const PavilionGame& g) {
        std::vector<std::string> out;
        for (int f = 0; f < g.state().num_factories; ++f) out.push_back(sp::TilesToStr(g.state().factories[f]));
        return out;
      })
      .def_property_readonly("centre", [](const PavilionGame& g) { return sp::TilesToStr(g.state().centre); })
      .def_property_readonly("center", [](const PavilionGame& g) { return sp::TilesToStr(g.state().centre); })  // alias
      .def_property_readonly("supply", [](const PavilionGame& g) { return sp::TilesToStr(g.state().supply); })
      .def_property_readonly("bag", [](const PavilionGame& g) { return sp::TilesToStr(g.state().bag); })
      .def_property_readonly("tower", [](const PavilionGame& g) { return sp::TilesToStr(g.state().tower); })
      .def_property_readonly("lid", [](const PavilionGame& g) { return sp::TilesToStr(g.state().tower); })
      .def_property_readonly("wild", [](const PavilionGame& g) {
        return std::string(1, sp::kColourLetters[std::min<int>(g.state().round, sp::kRounds) - 1]);
      })
      .def_property_readonly("first_player_marker", [](const PavilionGame& g) { return int(g.state().marker); })
      .def_property_readonly("moves_this_round", [](const PavilionGame& g) { return g.state().moves; })
      .def_property_readonly("hands", [](const PavilionGame& g) {
        std::vector<std::string> out;
        for (int p = 0; p < g.state().players; ++p) out.push_back(sp::TilesToStr(g.state().hand[p]));
        return out;
      })
      .def_property_readonly("passed", [](const PavilionGame& g) {
        std::vector<bool> out;
        for (int p = 0; p < g.state().players; ++p) out.push_back(g.state().passed[p] != 0);
        return out;
      })
      .def_property_readonly("bonus_owed", [](const PavilionGame& g) { return int(g.state().owed); })
      .def_property_readonly("boards", [](const PavilionGame& g) {
        std::vector<std::vector<std::string>> out;
        for (int p = 0; p < g.state().players; ++p) out.push_back(sp::BoardStrings(g.state(), p));
        return out;
      })
      .def_property_readonly("winners", [](const PavilionGame& g) { return sp::Winners(g.state()); })
      .def("returns", [](const PavilionGame& g) { return g.Returns(); })
      .def("clone", [](const PavilionGame& g) { return g; })
      .def("__copy__", [](const PavilionGame& g) { return g; })
      .def("__deepcopy__", [](const PavilionGame& g, py::object) { return g; })
      .def("__eq__", [](const PavilionGame& a, const PavilionGame& b) { return a.state() == b.state(); }, py::is_operator())
      .def("__reduce__", [m](const PavilionGame& g) {
        return py::make_tuple(m.attr("from_text"), py::make_tuple(g.ToText(true)));
      })
      .def("__repr__", [](const PavilionGame& g) {
        return "from_text(" + PyRepr(sp::ToText(g.state(), nullptr)) + ")";
      })
      .def("__str__", [](const PavilionGame& g) { return sp::BoardText(g.state()); })
      .def("legal_actions", [](const PavilionGame& g) { return sp::LegalActionList(g.state()); })
      .def("legal_moves", [](const PavilionGame& g) {
        std::vector<std::string> out;
        for (int a : sp::LegalActionList(g.state())) out.push_back(sp::ActionText(a));
        return out;
      })
      .def("legal_action_mask", &LegalMask<PavilionRules>)
      .def("observation_tensor", [](const PavilionGame& g, const py::object& player) {
        const int observer = Observer(player, g.state().turn, g.state().players);
        py::array_t<float> out(sp::ObservationSize(g.state().players));
        sp::Observation(g.state(), observer, out.mutable_data());
        return out;
      }, py::arg("player") = py::none())
      .def("chance_outcomes", [](const PavilionGame& g) { return sp::ChanceOutcomes(g.state()); })
      .def("action_to_string", [](const PavilionGame& g, const py::object& a) {
        (void)g;
        return sp::ActionText(IdToName<PavilionRules>(a));
      }, py::arg("action"))
      .def("string_to_action", [](const PavilionGame& g, const py::object& text) {
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
      }, py::arg("text"))
      .def("apply", &ApplyPavilion, py::arg("move"))
      .def("deal", &DealPy<PavilionRules>, py::arg("factories"))
      .def("deal_supply", &DealSupplyPavilion, py::arg("tiles"))
      .def("reseed", &ReseedPy<PavilionRules>, py::arg("seed"))
      .def("undo", &PavilionGame::Undo)
      .def("key", &KeyPy<PavilionRules>)
      .def("__hash__", &HashPy<PavilionRules>)
      .def("to_text", [](const PavilionGame& g, const py::object& history) {
        return g.ToText(Truthy(history));
      }, py::arg("history") = false)
      .def_static("from_text", &FromTextPavilion, py::arg("text"))
      .def("record", [](const PavilionGame& g) {
        return py::module_::import("json").attr("loads")(g.RecordJson());
      })
      .def("record_json", [](const PavilionGame& g) { return g.RecordJson(); })
      .def("score_sheet", [](const PavilionGame& g) {
        return py::module_::import("json").attr("loads")(g.ScoreSheetJson());
      });
}

}  // namespace bind
}  // namespace azul
