SOURCE = "python/azul_engine/_pypavilion.py"
PACKAGE_DIR = "python/azul_engine/_pure/pavilion"
CLASS = "PavilionState"
TOP_IMPORT_PREFIX = "..."
DEFAULT = "state"
LEAVES = ["tables", "notation"]
T = "C++ twin: "
P = "Azul: Summer Pavilion, pure-Python engine: "
MODULES = {
    "tables": dict(banner=P + "constants and tables (colours, stars, ornaments, action ids, kept-tile sets, phases).\n\n" + T + "native/include/azul/pavilion.h (its constants and tables).",
                   top="SP_COLOURS SP_COLOUR_NAMES SP_STARS SP_STAR_NAMES STAR_COLOUR CENTRE_STAR TILES_PER_COLOUR SUPPLY_SIZE START_SCORE MIN_SCORE ROUNDS CENTRE STAR_BONUS NUMBER_BONUS SP_PLACE_ACTION_BASE SP_BONUS_ACTION_BASE SP_PASS_ACTION_BASE SP_DRAW_ACTION_BASE SP_FIRST_PLAYER_ACTION_BASE SP_NUM_ACTIONS CHANCE SEAT_FEATURES SHARED_FEATURES _KEEPS SP_KEEP_SETS _KEEP_INDEX _PASS_FIT _PASS_MASK_BYTES _PASS_BYTES _space _ornaments ORNAMENTS _ORNAMENT_MASK _ORNAMENTS_OF _STAR_MASK _NUMBER_MASK ornament_name FIRST_PLAYER FILL ACQUIRE PLAY BONUS OVER PHASE_NAMES NO_FILL FILL_SETUP FILL_FACTORIES FILL_REFILL FILL_NAMES _ACQUIRES _num_factories".split()),
    "notation": dict(banner=P + "move notation (docs/records.md section 3) and tile strings.\n\n" + T + "native/src/pavilion_text.cpp (its notation half).",
                     top="_tiles _TILE_TEXT _action_text _ACTION_TEXT _PLACE_PARTS _parse_tiles _parse_move".split(),
                     methods="action_to_string string_to_action".split()),
    "state": dict(banner=P + "the game state, PavilionState (the methods of each job are written in that job's\nmodule and attached here).\n\n" + T + "native/include/azul/pavilion.h (sp::State)."),
    "movegen": dict(banner=P + "move generation (legal actions, chance outcomes).\n\n" + T + "native/src/pavilion.cpp (its move generation).",
                    top="_wild_count_range _space_places _CENTRE_PLACES _STAR_PLACES _star_places".split(),
                    methods="legal_actions _legal_actions _placements _passes legal_moves legal_action_mask chance_outcomes".split()),
    "apply": dict(banner=P + "checking and playing a move: acquire, place, bonus tiles, pass (rules section 3).\n\n" + T + "native/src/pavilion.cpp (its moves).",
                  methods="apply _check_legal _check_acquire _check_place _play _acquire _place _pass _end_turn".split()),
    "scoring": dict(banner=P + "runs and the end of the game (rules section 3).\n\n" + T + "native/src/pavilion.cpp (its scoring).",
                    top=["_run_length"], methods=["_finish"]),
    "round": dict(banner=P + "new games, fills (setup supply, factories, refills), explicit deals.\n\n" + T + "native/src/pavilion.cpp (its fills).",
                  top="_draw_multiset new_game".split(),
                  methods="_begin_setup _start_round _put_drawn _continue_fill _fill_done deal deal_supply _deal_supply".split()),
    "observation": dict(banner=P + "observation tensors (docs/observation.md).\n\n" + T + "native/src/pavilion.cpp (sp::Observation).",
                        methods="observation_tensor _observer".split()),
    "text": dict(banner=P + "state text, written and read back, and the readable board.\n\n" + T + "native/src/pavilion_text.cpp.",
                 top="_counts _FIELDS _int_field _count_list _tile_field _from_text _read_player _check_consistency _read_history".split(),
                 methods="to_text __str__".split()),
    "record": dict(banner=P + "the game's record (docs/records.md) and score sheet.\n\n" + T + "native/src/pavilion_text.cpp (its record writer).",
                   methods="record record_json score_sheet".split()),
    "playout": dict(banner=P + "random playouts on the full state.\n\n" + T + "native/src/pavilion.cpp (sp::PlayRandom; the compact kernel is pavilion_playout.cpp).",
                    top=["play_random"]),
}

MODULES["undo"] = dict(banner=P + "undo: taking back the last apply() exactly.\n\n" + T + "native/include/azul/undo.h.",
                       methods="_undo_entry _restore undo".split())
MODULES["key"] = dict(banner=P + "the position key (state.key(), hash(state)).\n\n" + T + "native/src/key.cpp.",
                      methods="key __hash__".split())
