"""What needs PyTorch: the shipped Mini Hexchess network, exported to TorchScript and run by
PyTorch in Python, through `vzero.search`, makes the same move with the same visit counts as
`vzero analyse` searching with the checkpoint itself, single-threaded, in fp32, one leaf in
flight (a deterministic search on both sides); and the training loop of docs/python.md runs."""

import json
import os
import re

import numpy as np
import pytest
from conftest import PLAIN, PLAIN_SEARCH, REPO, random_game, replay, run_cli

import vzero

CHECKPOINT = REPO / "models" / "mini-hexchess" / "checkpoint"
DOCS = REPO / "docs" / "python.md"
SIMS = 200


def load_torch():
    """PyTorch, or a skip where the install has none and says so (the CPU-only libtorch)."""
    try:
        import torch

        torch.jit.load  # noqa: B018 (CPU-only libtorch's folder imports as an empty namespace)
        return torch
    except (ImportError, AttributeError):
        if os.environ.get("VZERO_SKIP_PYTHON"):
            pytest.skip("skipped: no PyTorch in this Python and VZERO_SKIP_PYTHON is set")
        pytest.fail("no PyTorch in this Python (set VZERO_SKIP_PYTHON=1 to skip)")


def test_the_exported_network_searches_as_vzero_analyse(tmp_path):
    torch = load_torch()
    model_path = tmp_path / "model.pt"
    run_cli("export", str(CHECKPOINT), "--out", str(model_path))
    torch.set_num_threads(1)
    model = torch.jit.load(str(model_path))
    side = json.loads((tmp_path / "model.pt.json").read_text())

    @torch.no_grad()
    def evaluate(planes):
        out = model(torch.from_numpy(planes)).numpy()
        p = side["policy_size"]
        return out[:, :p], out[:, p:]

    openings = [[], random_game("mini-hexchess", seed=4, max_plies=5)[0]]
    for moves in openings:
        game = replay("mini-hexchess", moves)
        result = vzero.search(game, evaluate, SIMS, max_in_flight=1, **PLAIN)
        done = run_cli(
            "analyse", "--variant", "mini-hexchess", "--model", str(CHECKPOINT), "--moves", " ".join(moves),
            "--sims", str(SIMS), "--threads", "1", "--leaves", "1", "--precision", "fp32", "--device", "cpu",
            "--multipv", "1000", "--json", *PLAIN_SEARCH,
        )
        report = json.loads(done.stdout)
        cli = {line["move"]: line["visits"] for line in report["moves"]}
        ours = dict(zip(result.moves, result.visits.tolist()))
        where = f"after {moves}"
        assert result.best == report["bestmove"], where
        assert ours == cli, where
        priors = {line["move"]: line["prior"] for line in report["moves"]}
        assert [priors[m] for m in result.moves] == pytest.approx(result.priors.tolist(), abs=1e-5), where
        assert result.value.tolist() == pytest.approx(report["values"], abs=1e-4), where
        assert np.isfinite(result.value).all()


def test_the_training_loop_of_the_docs_runs(capsys):
    torch = load_torch()
    torch.set_num_threads(1)
    text = DOCS.read_text()
    code = re.search(r"```python\n(.*?)```", text[text.index("## Training a network") :], re.S).group(1)
    sizes = 'VARIANT, GAMES, SIMS, MAX_PLIES, ITERATIONS = "mini-hexchess", 16, 32, 60, 2'
    assert sizes in code, "the example's sizes line changed: update this test"
    exec(code.replace(sizes, 'VARIANT, GAMES, SIMS, MAX_PLIES, ITERATIONS = "mini-hexchess", 4, 16, 12, 1'), {})
    assert re.search(r"iteration 0: \d+ positions, loss \d", capsys.readouterr().out)
