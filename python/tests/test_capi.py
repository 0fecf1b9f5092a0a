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


def test_hang_report_decoded_as_the_runtime_does():
    """The launcher decodes the hang record with the layout of
    include/pipeline-c/HangRecord.h and prints what the C++ runtime prints
    (the header's own formatter, through the C API)."""
    from pipeline_mlir import _generated
    from pipeline_mlir.driver import format_hang_record
    w = _generated.HANG_RECORD["words"]
    sites = ("0|ring|k.py:12:5|producer (empty barrier)\n"
             "1|ring|k.py:20:9|consumer (full barrier)\n"
             "2|other pipe|k.py:30:1|consumer (full barrier)\n")
    words = [0] * w["num_words"]
    assert format_hang_record(words, sites) == _capi.format_hang_report(words, sites) == ""
    for name, value in dict(state=2, site=1, stage=3, parity=1, lap=7, cta_x=4, cta_y=0,
                            cta_z=0, warp=5, lane=0, cluster_rank=1,
                            magic=_generated.HANG_RECORD["magic"]).items():
        words[w[name]] = value
    ours = format_hang_record(words, sites)
    assert ours == _capi.format_hang_report(words, sites)
    assert ours == ('hang: pipeline "ring" (k.py:20:9), consumer (full barrier) waits for '
                    'stage 3 parity 1, lap 7, CTA (4,0,0) warp 5 lane 0 (cluster rank 1)')
    words[w["site"]] = 9  # not in the table
    assert format_hang_record(words, sites) == _capi.format_hang_report(words, sites)
    words[w["magic"]] = 0
    assert format_hang_record(words, sites) == _capi.format_hang_report(words, sites)
