"""vzero for Python: the rules, network encoding and searches of vzero's chess variants.

Built from the project's Rust crates (rules, mcts, alphabeta) with pyo3; no libtorch. The
reference is docs/python.md in the repository.
"""

from ._vzero import (
    MATE,
    AlphaBetaResult,
    Game,
    GameTextError,
    IllegalMoveError,
    PositionError,
    SearchResult,
    alphabeta,
    read_games,
    search,
    search_settings,
    variant_summary,
    variants,
    write_game,
)

__all__ = [
    "MATE",
    "AlphaBetaResult",
    "Game",
    "GameTextError",
    "IllegalMoveError",
    "PositionError",
    "SearchResult",
    "alphabeta",
    "read_games",
    "search",
    "search_settings",
    "variant_summary",
    "variants",
    "write_game",
]
