#!/usr/bin/env python3
"""Octuple from Python, through the shared library (liboctuple.so.1) and ctypes.

A thin wrapper of octuple.h's calls, for a program that wants the engine in its own
process: a GUI, a bot, a notebook.

    from octuple import Engine
    engine = Engine()                      # the installed weights and book
    engine.set_option("level", "10")
    engine.play("f5")
    best = engine.think()
    print(best.move_name, best.score, best.line_names)

Run as a program, it plays the moves given on its command line (f5d6c3) and prints the
engine's move and its three best moves, as examples/embed.c does.
"""

import argparse
import ctypes
import os
import sys

ERROR_SIZE = 512       # OCTUPLE_ERROR_SIZE
BOARD_TEXT = 67        # OCTUPLE_BOARD_TEXT
GAME_TEXT = 16384      # OCTUPLE_GAME_TEXT
MAX_LINE = 64          # OCTUPLE_MAX_LINE
MAX_HINTS = 64         # OCTUPLE_MAX_HINTS
PASS = 64              # OCTUPLE_PASS
NO_MOVE = 65           # OCTUPLE_NO_MOVE


class Result(ctypes.Structure):
    """OctupleResult, field for field."""

    _fields_ = [
        ("move", ctypes.c_int),
        ("score", ctypes.c_double),
        ("exact", ctypes.c_bool),
        ("outcome_only", ctypes.c_bool),
        ("from_book", ctypes.c_bool),
        ("forced", ctypes.c_bool),
        ("stopped", ctypes.c_bool),
        ("depth", ctypes.c_int),
        ("selectivity", ctypes.c_int),
        ("line", ctypes.c_int * MAX_LINE),
        ("line_length", ctypes.c_int),
        ("nodes", ctypes.c_uint64),
        ("seconds", ctypes.c_double),
    ]

    @property
    def move_name(self):
        return move_name(self.move)

    @property
    def line_names(self):
        return [move_name(self.line[i]) for i in range(self.line_length)]


def move_name(move):
    """The name octuple_move_name gives: a1..h8, pa, or -- for no move."""
    if 0 <= move < 64:
        return "abcdefgh"[move % 8] + str(move // 8 + 1)
    return "pa" if move == PASS else "--"


class OctupleError(Exception):
    """A call the library refused, with its message."""


def _library(path=None):
    """The shared library: `path`, $OCTUPLE_LIBRARY, or liboctuple.so.1 where the dynamic
    loader finds it."""
    name = path or os.environ.get("OCTUPLE_LIBRARY") or "liboctuple.so.1"
    try:
        library = ctypes.CDLL(name)
    except OSError as error:
        raise OctupleError(f"cannot load the library: {error}") from None
    handle = ctypes.c_void_p
    text = ctypes.c_char_p
    error = (ctypes.c_char_p, ctypes.c_size_t)
    signatures = {
        "octuple_version": (text, []),
        "octuple_open": (handle, [text, *error]),
        "octuple_close": (None, [handle]),
        "octuple_set_option": (ctypes.c_bool, [handle, text, text, *error]),
        "octuple_new_game": (None, [handle]),
        "octuple_set_board": (ctypes.c_bool, [handle, text, *error]),
        "octuple_play": (ctypes.c_bool, [handle, ctypes.c_int, *error]),
        "octuple_undo": (ctypes.c_int, [handle]),
        "octuple_side_to_move": (ctypes.c_int, [handle]),
        "octuple_move_parse": (ctypes.c_int, [text]),
        "octuple_board": (text, [handle, ctypes.c_char_p]),
        "octuple_legal_moves": (ctypes.c_int, [handle, ctypes.POINTER(ctypes.c_int)]),
        "octuple_think": (ctypes.c_bool, [handle, ctypes.c_void_p, ctypes.POINTER(Result),
                                          *error]),
        "octuple_hint": (ctypes.c_int, [handle, ctypes.c_int, ctypes.POINTER(Result),
                                        *error]),
        "octuple_stop": (None, [handle]),
    }
    # added by API version 2: bound when the library has them (a version-1 library loads,
    # and only these calls refuse)
    version_2 = {
        "octuple_set_game": (ctypes.c_bool, [handle, text, *error]),
        "octuple_get_game": (ctypes.c_bool, [handle, ctypes.c_char_p, ctypes.c_size_t,
                                             *error]),
        "octuple_learn": (ctypes.c_bool, [handle, *error]),
    }
    if hasattr(library, "octuple_api_version"):
        library.octuple_api_version.restype = ctypes.c_int
        library.octuple_api_version.argtypes = []
        if library.octuple_api_version() >= 2:
            signatures.update(version_2)
    for name, (restype, argtypes) in signatures.items():
        function = getattr(library, name)
        function.restype = restype
        function.argtypes = argtypes
    return library


class Engine:
    """One engine handle (octuple_open) with its own game, settings and search."""

    def __init__(self, weights=None, library=None):
        self._lib = _library(library)
        error = ctypes.create_string_buffer(ERROR_SIZE)
        self._handle = self._lib.octuple_open(
            weights.encode() if weights else None, error, ERROR_SIZE)
        if not self._handle:
            raise OctupleError(error.value.decode(errors="backslashreplace"))

    def close(self):
        if self._handle:
            self._lib.octuple_close(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        self.close()

    def _call(self, function, *arguments):
        error = ctypes.create_string_buffer(ERROR_SIZE)
        value = function(self._handle, *arguments, error, ERROR_SIZE)
        if value is False or (type(value) is int and value < 0):  # bool: refused; int: -1
            raise OctupleError(error.value.decode(errors="backslashreplace"))
        return value

    @property
    def version(self):
        return self._lib.octuple_version().decode()

    def set_option(self, name, value):
        self._call(self._lib.octuple_set_option, name.encode(), str(value).encode())

    def new_game(self):
        self._lib.octuple_new_game(self._handle)

    def set_board(self, text):
        self._call(self._lib.octuple_set_board, text.encode())

    def play(self, move):
        """A move by name ("f5", "pass") or number (0..63, 64 for a pass)."""
        if isinstance(move, str):
            number = self._lib.octuple_move_parse(move.encode())
            if number < 0:
                raise OctupleError(f"'{move}' is not a move")
            move = number
        self._call(self._lib.octuple_play, move)

    def undo(self):
        return self._lib.octuple_undo(self._handle)

    def _version_2(self, name):
        function = getattr(self._lib, name, None)
        if function is None or function.argtypes is None:
            raise OctupleError(f"{name} needs a library of API version 2 or later")
        return function

    def set_game(self, text):
        """A whole game: a GGF record or a move string such as "f5d6c3"."""
        # surrogateescape: the bytes of a record that game() read back go in unchanged
        self._call(self._version_2("octuple_set_game"), text.encode(errors="surrogateescape"))

    def game(self):
        """The game as a one-line GGF record."""
        record = ctypes.create_string_buffer(GAME_TEXT)
        self._call(self._version_2("octuple_get_game"), record, GAME_TEXT)
        return record.value.decode(errors="surrogateescape")

    def learn(self):
        """Adds the finished game to the opening book and the user's learned.ggf."""
        self._call(self._version_2("octuple_learn"))

    def side_to_move(self):
        """"black", "white", or None when the game is over."""
        return {0: "black", 1: "white"}.get(self._lib.octuple_side_to_move(self._handle))

    def board(self):
        text = ctypes.create_string_buffer(BOARD_TEXT)
        return self._lib.octuple_board(self._handle, text).decode()

    def legal_moves(self):
        moves = (ctypes.c_int * 64)()
        count = self._lib.octuple_legal_moves(self._handle, moves)
        return [move_name(moves[i]) for i in range(count)]

    def think(self):
        """The move the engine would play (not played), as a Result."""
        result = Result()
        self._call(self._lib.octuple_think, None, ctypes.byref(result))
        return result

    def hint(self, count=3):
        """The `count` best moves with their scores, best first."""
        results = (Result * MAX_HINTS)()
        written = self._call(self._lib.octuple_hint, count, results)
        return [results[i] for i in range(written)]

    def stop(self):
        """Ends a search running in another thread."""
        self._lib.octuple_stop(self._handle)


def _describe(label, result):
    kind = " (exact)" if result.exact else " (book)" if result.from_book else ""
    return (f"{label} {result.move_name} {result.score:+.2f}{kind}, depth {result.depth}, "
            f"line {' '.join(result.line_names)}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("moves", nargs="?", default="", help="moves from the start: f5d6c3")
    parser.add_argument("--library", help="the shared library (default: liboctuple.so.1)")
    parser.add_argument("--weights", help="an Octuple weights file")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an engine option, as octuple's command line names it")
    arguments = parser.parse_args()
    try:
        with Engine(arguments.weights, arguments.library) as engine:
            for option in arguments.option:
                name, _, value = option.partition("=")
                engine.set_option(name, value)
            moves = arguments.moves
            for i in range(0, len(moves), 2):
                engine.play(moves[i:i + 2])
            board = engine.board()
            for row in range(8):
                print(f"{row + 1} {board[8 * row:8 * row + 8]}")
            side = engine.side_to_move()
            print("  abcdefgh   " + {"black": "black (X)", "white": "white (O)"}.get(side, "nobody")
                  + " to move")
            print(_describe("best:", engine.think()))
            for hint in engine.hint(3):
                print(_describe("hint:", hint))
    except OctupleError as error:
        print(f"octuple.py: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
