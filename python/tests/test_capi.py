"""The C API through ctypes: check, round trip, version."""

import pipeline_mlir as pm
from pipeline_mlir import _capi
import handoff_ring


def test_version_matches_package():
    assert _capi.version() == f"pipeline-mlir {pm.__version__}"


def test_round_trip_through_the_c_api():
    text = handoff_ring.handoff_ring.mlir() if False else pm.Module(
        [handoff_ring.handoff_ring]).mlir()
    result = _capi.check(text, "ring.mlir")
    assert result.succeeded, [d.format() for d in result.diagnostics]
    # The C API printed the parsed module back: custom form of our ops.
    assert "pipeline.produce %" in result.ir
    assert "!pipeline.pipeline<stages = 4>" in result.ir
    # ... and what it printed parses and verifies again.
    again = _capi.check(result.ir, "again.mlir")
    assert again.succeeded and again.ir == result.ir


def test_check_returns_warnings_only_on_success():
    assert pm.check(handoff_ring.handoff_ring) == []
