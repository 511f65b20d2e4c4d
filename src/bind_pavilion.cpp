// pybind11 bindings of Azul: Summer Pavilion: the PavilionState class.  Only conversions: each
// entry forwards to native/src/pavilion/ (through PavilionRules where the variants share a name).
#include <string>
#include <vector>

#include "bindings.h"

namespace azul {
namespace bind {

namespace {

PGame FromTextPavilion(const py::object& text) {
  if (!py::isinstance<py::str>(text))
    throw py::type_error("state text must be a str, not " + TypeName(text));
  PGame g;
  g.s = sp::FromText(Utf8(text), &g.h);
  return g;
}

void DealSupplyPavilion(PGame& g, const py::object& tiles) {
  if (!py::isinstance<py::str>(tiles))
    throw IllegalMove("deal_supply: tiles are a string of colour letters, not " + TypeName(tiles));
  int counts[sp::kColours];
  sp::ParseTiles(Utf8(tiles), "deal_supply", counts, true);
  sp::DealSupply(g.s, counts, &g.h);
  g.undo.clear();
}

void ApplyPavilion(PGame& g, const py::object& move) {
  int action;
  if (py::isinstance<py::str>(move)) {
    int counts[sp::kColours];
    action = sp::ParseMove(Utf8(move), counts);
    if (action < 0) {
      sp::DealSupply(g.s, counts, &g.h);
      g.undo.clear();
      return;
    }
  } else {
    action = ToAction<PavilionRules>(move);
  }
  sp::CheckLegal(g.s, action);
  PlayChecked(g, action);
}

}  // namespace

void BindPavilion(py::module_& m) {
  py::class_<PGame>(m, "PavilionState")
      .def(py::init([](const py::args&, const py::kwargs&) -> PGame {
        throw py::type_error(kPavilionHint);
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
      .def_property_readonly("centre", [](const PGame& g) { return sp::TilesToStr(g.s.centre); })
      .def_property_readonly("center", [](const PGame& g) { return sp::TilesToStr(g.s.centre); })  // alias
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
      .def("__reduce__", [m](const PGame& g) {
        return py::make_tuple(m.attr("from_text"), py::make_tuple(sp::ToText(g.s, &g.h)));
      })
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
      .def("legal_action_mask", &LegalMask<PavilionRules>)
      .def("observation_tensor", [](const PGame& g, const py::object& player) {
        const int observer = Observer(player, g.s.turn, g.s.players);
        py::array_t<float> out(sp::ObservationSize(g.s.players));
        sp::Observation(g.s, observer, out.mutable_data());
        return out;
      }, py::arg("player") = py::none())
      .def("chance_outcomes", [](const PGame& g) { return sp::ChanceOutcomes(g.s); })
      .def("action_to_string", [](const PGame& g, const py::object& a) {
        (void)g;
        return sp::ActionText(IdToName<PavilionRules>(a));
      }, py::arg("action"))
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
      }, py::arg("text"))
      .def("apply", &ApplyPavilion, py::arg("move"))
      .def("deal", &DealPy<PavilionRules>, py::arg("factories"))
      .def("deal_supply", &DealSupplyPavilion, py::arg("tiles"))
      .def("reseed", &ReseedPy<PavilionRules>, py::arg("seed"))
      .def("undo", &UndoPy<PavilionRules>)
      .def("key", &KeyPy<PavilionRules>)
      .def("__hash__", &HashPy<PavilionRules>)
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
}

}  // namespace bind
}  // namespace azul
