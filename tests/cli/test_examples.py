"""The examples the README and the install smoke test (scripts/smoke_install.py) rely on say what they claim."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from typing import Any

from tests.cli.conftest import Run

ROOT = Path(__file__).resolve().parents[2]


def smoke_module() -> Any:
    spec = importlib.util.spec_from_file_location("smoke_install", ROOT / "scripts" / "smoke_install.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_sample_project_has_the_findings_the_smoke_test_expects(run: Run, tmp_path: Path) -> None:
    shutil.copytree(ROOT / "examples" / "sample-project", tmp_path / "sample-project")
    result = run("check", "sample-project", "--format", "json")
    assert result.returncode == 1, result.stderr
    findings = json.loads(result.stdout)["findings"]
    found = {
        (where["path"].removeprefix("sample-project/"), where["line"], where["column"], f["rule"])
        for f in findings
        for where in [f["location"], *f.get("related", [])]
    }
    assert found == smoke_module().SAMPLE_PROJECT_FINDINGS
    assert [(f["rule"], f["count"], len(f.get("related", []))) for f in findings if f["rule"] == "KEY006"] == [
        ("KEY006", 2, 1)
    ]
