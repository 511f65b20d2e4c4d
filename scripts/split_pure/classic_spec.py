SOURCE = "python/azul_engine/_pyengine.py"
PACKAGE_DIR = "python/azul_engine/_pure/classic"
CLASS = "GameState"
TOP_IMPORT_PREFIX = "..."
DEFAULT = "state"
LEAVES = ["types", "notation"]
SKIP = []
T = "C++ twin: "
MODULES = {
    "types": dict(banner="Classic and grey-wall Azul, pure-Python engine: constants (colours, action ids, phases).\n\n" + T + "native/include/azul/types.h (and observation.h's sizes).",
                  top="COLOURS COLOUR_NAMES VARIANTS WALL_VARIANTS TEXT_VERSION TILES_PER_COLOUR FLOOR_SPACES MAX_ROUNDS FLOOR_PENALTY CENTRE FLOOR NUM_DRAFT_ACTIONS TILE_ACTION_BASE DRAW_ACTION_BASE FIRST_PLAYER_ACTION_BASE PORTABLE NUM_ACTIONS CHANCE SEAT_FEATURES SHARED_FEATURES FIRST_PLAYER FILL OFFER TILING OVER PHASE_NAMES _wall_column _num_factories".split()),
    "notation": dict(banner="Classic and grey-wall Azul, pure-Python engine: move notation (docs/records.md section 2) and tile strings.\n\n" + T + "native/src/notation.cpp.",
                     top="_tiles_to_str _TILE_TEXT _draft_to_str _NO_TILES _DRAFT_TEXT _TILING_TEXT _DRAFT_PARTS _DRAFTS _OPEN_EMPTY _parse_move _parse_tiles".split(),
                     methods="action_to_string string_to_action".split()),
    "state": dict(banner="Classic and grey-wall Azul, pure-Python engine: the game state, GameState (the methods of each job are\nwritten in that job's module and attached here).\n\n" + T + "native/include/azul/state.h."),
    "movegen": dict(banner="Classic and grey-wall Azul, pure-Python engine: move generation (legal actions, chance outcomes).\n\n" + T + "native/src/movegen.cpp.",
                    methods="_pending_row _allowed_columns _row_has legal_actions _legal_actions legal_moves chance_outcomes legal_action_mask".split()),
    "apply": dict(banner="Classic and grey-wall Azul, pure-Python engine: checking and playing a move (rules sections 1-2).\n\n" + T + "native/src/apply.cpp.",
                  top=["_check_action"], methods="apply _play _check_legal _to_floor _draft".split()),
    "scoring": dict(banner="Classic and grey-wall Azul, pure-Python engine: wall tiling, scoring, the end of a round and of the game\n(rules sections 1-2).\n\n" + T + "native/src/scoring.cpp.",
                    top="_tile_runs _tile_points _wall_bonus end_bonus".split(),
                    methods="_tile_line _best_column _tile_walls _continue_tiling _floor_penalty _complete_rows _is_stuck _end_round score_if_round_ended".split()),
    "round": dict(banner="Classic and grey-wall Azul, pure-Python engine: new games, filling the factories, explicit deals (rules\nsections 1 and 5).\n\n" + T + "native/src/round.cpp.",
                  top=["new_game"], methods="_start_round _put_drawn _continue_fill _begin_offer deal".split()),
    "observation": dict(banner="Classic and grey-wall Azul, pure-Python engine: observation tensors (docs/observation.md).\n\n" + T + "native/src/observation.cpp.",
                        top=["observation_shape"], methods="_observation _observer observation_tensor".split()),
    "text": dict(banner="Classic and grey-wall Azul, pure-Python engine: state text, written and read back, and the readable board.\n\n" + T + "native/src/text.cpp.",
                 top="_counts _FIELDS _is_uint _is_int _int_field _count_list _from_text _read_player _parse_wall _colour_in_row _check_consistency _read_history _board_text from_text".split(),
                 methods=["to_text"]),
    "record": dict(banner="Classic and grey-wall Azul, pure-Python engine: the game's record (docs/records.md) and score sheet.\n\n" + T + "native/src/record.cpp.",
                   methods="record record_json score_sheet".split()),
    "playout": dict(banner="Classic and grey-wall Azul, pure-Python engine: random playouts (random_playouts, playouts_from).\n\n" + T + "native/src/playout.cpp (and the playout kernel, native/src/kernel.cpp).",
                    top="_GAMMA _splitmix_output _play_random _play_random_wall _check_playouts random_playouts playouts_from".split()),
    "vector": dict(banner="Both variants, pure-Python engine: VectorGame, n games stepped together.\n\n" + T + "native/src/vector.cpp.",
                   top="VectorGame _vector_game".split()),
}

MODULES["undo"] = dict(banner="Classic and grey-wall Azul, pure-Python engine: " + "undo: taking back the last apply() exactly.\n\n" + T + "native/include/azul/undo.h.",
                       methods="_undo_entry _restore undo".split())
MODULES["key"] = dict(banner="Classic and grey-wall Azul, pure-Python engine: " + "the position key (state.key(), hash(state)).\n\n" + T + "native/src/key.cpp.",
                      methods="key __hash__".split())
