// GameInfo and game_info(variant, players): a read-only copy of the core's per-variant facts
// (azul/common/game_info.h); only converts and forwards.
#include "azul/common/game_info.h"
#include "bindings.h"

namespace azul {
namespace bind {

void BindGameInfo(py::module_& m) {
  py::class_<GameInfo>(m, "GameInfo")
      .def(py::init([](const py::args&, const py::kwargs&) -> GameInfo {
        throw py::type_error("use azul_engine.game_info(variant, players)");
      }))
      .def_property_readonly("variant", [](const GameInfo& i) { return i.variant; })
      .def_property_readonly("players", [](const GameInfo& i) { return i.players; })
      .def_property_readonly("num_actions", [](const GameInfo& i) { return i.num_actions; })
      .def_property_readonly("observation_shape",
                             [](const GameInfo& i) { return py::make_tuple(i.observation_size); })
      .def_property_readonly("observation_offsets", [](const GameInfo& i) {
        py::dict parts;
        for (const ObservationPart& p : i.observation_parts)
          parts[py::str(p.name)] = py::make_tuple(p.start, p.length);
        return py::module_::import("types").attr("MappingProxyType")(parts);
      })
      .def_property_readonly("seat_features", [](const GameInfo& i) { return i.seat_features; })
      .def_property_readonly("colours", [](const GameInfo& i) { return i.colours; })
      .def_property_readonly("start_score", [](const GameInfo& i) { return i.start_score; })
      .def_property_readonly("min_score", [](const GameInfo& i) { return i.min_score; })
      .def_property_readonly("max_score", [](const GameInfo& i) { return i.max_score; })
      .def_property_readonly("max_rounds", [](const GameInfo& i) { return i.max_rounds; })
      .def_property_readonly("rounds", [](const GameInfo& i) -> py::object {
        return i.rounds ? py::object(py::int_(i.rounds)) : py::object(py::none());
      })
      .def_property_readonly("factories", [](const GameInfo& i) { return i.factories; })
      .def_property_readonly("tiles_per_colour", [](const GameInfo& i) { return i.tiles_per_colour; })
      .def_property_readonly("wild_colours", [](const GameInfo& i) -> py::object {
        return i.wild_colours.empty() ? py::object(py::none()) : py::object(py::str(i.wild_colours));
      })
      .def_property_readonly("end_bonuses", [](const GameInfo& i) {
        py::dict bonuses;
        for (const auto& b : i.end_bonuses) bonuses[py::str(b.first)] = b.second;
        return py::module_::import("types").attr("MappingProxyType")(bonuses);
      })
      .def_property_readonly("floor_penalties", [](const GameInfo& i) -> py::object {
        if (i.floor_penalties.empty()) return py::none();
        py::tuple out(i.floor_penalties.size());
        for (size_t k = 0; k < i.floor_penalties.size(); ++k) out[k] = py::int_(i.floor_penalties[k]);
        return out;
      })
      .def_property_readonly("wall_pattern", [](const GameInfo& i) -> py::object {
        if (i.wall_pattern.empty()) return py::none();
        py::tuple out(i.wall_pattern.size());
        for (size_t k = 0; k < i.wall_pattern.size(); ++k) out[k] = py::str(i.wall_pattern[k]);
        return out;
      })
      .def_property_readonly("stars", [](const GameInfo& i) -> py::object {
        return i.stars.empty() ? py::object(py::none()) : py::object(py::str(i.stars));
      })
      .def("__setattr__", [](const py::object&, const py::object&, const py::object&) {
        throw py::attribute_error("GameInfo is read-only");
      })
      .def("__delattr__", [](const py::object&, const py::object&) {
        throw py::attribute_error("GameInfo is read-only");
      })
      .def("__eq__", [](const GameInfo& a, const py::object& b) -> py::object {
        if (!py::isinstance<GameInfo>(b)) return py::reinterpret_borrow<py::object>(Py_NotImplemented);
        const GameInfo& o = b.cast<const GameInfo&>();
        return py::bool_(a.variant == o.variant && a.players == o.players);
      })
      .def("__hash__", [](const GameInfo& i) { return py::hash(py::make_tuple(i.variant, i.players)); })
      .def("__repr__", [](const GameInfo& i) {
        return "GameInfo(variant=" + Utf8(py::repr(py::str(i.variant))) + ", players=" +
               std::to_string(i.players) + ")";
      })
      .def("__reduce__", [m](const GameInfo& i) {
        return py::make_tuple(m.attr("game_info"), py::make_tuple(i.variant, i.players));
      });
  // Only game_info makes them: __new__ refuses, so that no GameInfo exists over unconstructed memory.
  SetNew(m.attr("GameInfo"), py::cpp_function([](const py::args&, const py::kwargs&) -> py::object {
           throw py::type_error("use azul_engine.game_info(variant, players)");
         }, py::name("__new__")),
         [](PyTypeObject*, PyObject*, PyObject*) -> PyObject* {
           PyErr_SetString(PyExc_TypeError, "use azul_engine.game_info(variant, players)");
           return nullptr;
         });
  m.def("game_info", [](const py::object& variant, const py::object& players) {
    CheckNewGame(players, variant, py::int_(0), py::str("sampled"));  // new_game's checks and messages
    return MakeGameInfo(Utf8(variant), players.cast<int>());
  }, py::arg("variant") = "classic", py::arg("players") = 2);
}

}  // namespace bind
}  // namespace azul
