"""The HTML report: self-contained page with the figures; numbers from the records."""

import base64
import re

import pytest

from autointeract.calibrate.config import CalibrateConfig
from autointeract.calibrate.loop import run_calibration
from autointeract.errors import DataError
from autointeract.report.html import collect, write_report


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    d = tmp_path_factory.mktemp("run")
    cfg = CalibrateConfig.model_validate({
        "seeds": {"ids": ["count-vowels", "digit-sums"]},
        "weak": {"kind": "skill", "skill": 0.25}, "strong": {"kind": "skill", "skill": 0.85},
        "generator": {"use_llm": False, "check_reference": False}, "verify": "reference",
        "band": {"confidence": 0.8, "max_n": 6}, "controller": {"max_candidates": 6},
        "progress": False})
    run_calibration(cfg, run_dir=d / "generate", client=None, seed=0)
    return d


def test_report_is_self_contained(run):
    path = write_report(run)
    assert path == run / "report.html"
    page = path.read_text()
    imgs = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(imgs) >= 3
    assert all(base64.b64decode(i)[:8] == b"\x89PNG\r\n\x1a\n" for i in imgs)
    assert "http://" not in page and "https://" not in page
    for word in ("Acceptance funnel", "Accepted tasks", "weak pass rate"):
        assert word.lower() in page.lower() or word in page


def test_collect_counts_the_funnel():
    ev = {"weak": {"passes": 0, "n": 4}, "strong": {"passes": 4, "n": 4}, "p_weak_in": 0.9,
          "p_strong_in": 0.85, "episodes": 8, "band": {"weak_max": 0.4, "strong_min": 0.7}}
    cands = [
        {"candidate_id": "c1", "proposal": {"seed_id": "a", "level": 1},
         "generation": {"status": "ok"}, "evidence": ev,
         "outcome": {"status": "accepted", "task_id": "a~1", "episodes": 8, "tokens": 100,
                     "wall_s": 4.0}},
        {"candidate_id": "c2", "proposal": {"seed_id": "a", "level": 2},
         "generation": {"status": "reference_disagrees"}, "evidence": None,
         "outcome": {"status": "reference_disagrees", "task_id": None, "episodes": 0,
                     "tokens": 0, "wall_s": 1.0}},
        {"candidate_id": "c3", "proposal": {"seed_id": "b", "level": 2},
         "generation": {"status": "firewalled"}, "evidence": None,
         "outcome": {"status": "firewalled", "task_id": None, "episodes": 0, "tokens": 0,
                     "wall_s": 0.5}},
    ]
    data = collect(cands, {"weak": [0.0], "strong": [1.0]}, title="t",
                   usage={"total": {"cost_usd": 0.3}})
    assert dict(data.funnel) == {"proposed": 3, "passed firewall": 2, "reference agrees": 1,
                                 "evaluated": 1, "decided": 1, "accepted": 1}
    assert data.summary["cost_usd_per_accepted"] == 0.3
    assert data.summary["wall_s_per_accepted"] == 5.5
    assert data.accepted[0]["weak"] == "0/4"


def test_no_run_is_a_data_error(tmp_path):
    with pytest.raises(DataError):
        write_report(tmp_path)
