"""Compiles the engine's move path with mypyc when the project is built (pyproject.toml holds
everything else). The modules listed run as C extensions, about 1.7 times as fast as the same
source interpreted (docs/performance.md, "The compiled engine"); the source stays the one home
of every rule, and the tests run against both builds.

Set FORTYFIVE_PURE=1 to build without compiling: every module then runs as plain Python, as
it also does where no C compiler is found (each extension is optional, so a failed compile
leaves the source in charge rather than failing the install).
"""

import os

from setuptools import setup

COMPILED = [
    "engine/action_values.py", "engine/actions.py", "engine/auction.py", "engine/boards.py",
    "engine/cards.py", "engine/deal_end.py", "engine/fold.py", "engine/legality.py",
    "engine/ranking.py", "engine/rulings.py", "engine/scoring.py", "engine/seating.py",
    "engine/shuffle.py", "engine/sides.py", "engine/state.py", "engine/tricks.py",
    "engine/profiles.py",
]
"""The engine's modules on the path of a move: listing and checking an action, folding it,
scoring and shuffling. (./dev rebuilds when one of them changes.)"""


def extensions() -> list:
    if os.environ.get("FORTYFIVE_PURE") == "1":
        return []
    from mypyc.build import mypycify

    built = mypycify(COMPILED, group_name="fortyfive_engine")
    for extension in built:
        extension.optional = True
    return built


setup(ext_modules=extensions())
