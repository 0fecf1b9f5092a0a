#!/usr/bin/env bash
# The libFuzzer target fuzz/pipeline-fuzz (docs/robustness.md), from a
# sanitizer build (scripts/test-sanitizers.sh makes build-asan).
#
#   scripts/fuzz.sh [SECONDS]          random fuzzing, default 60 s; 0 = until
#                                      interrupted. Then sorts the findings:
#                                      crashes in project code fail, known
#                                      upstream MLIR crashes are listed only.
#   scripts/fuzz.sh --replay [INPUT...]
#                                      deterministic: every input once, in a
#                                      fixed order, every one that lowers
#                                      assembled by ptxas; any crash or ptxas
#                                      rejection fails. Default inputs: the
#                                      seed corpus and fuzz/regressions/ (what
#                                      the test command runs). A directory
#                                      stands for its files.
#
# Environment: BUILD_DIR (default build-asan), FUZZ_DIR (corpus and
# artifacts, default $BUILD_DIR/fuzz; the replay uses $BUILD_DIR/fuzz-replay),
# PIPELINE_FUZZ_LOWER (lower every Nth input that passes the checkers;
# default 1), PIPELINE_FUZZ_PTXAS (assemble every Nth input that lowers with
# ptxas; default 50 when ptxas is there, 1 in the replay, 0 = off),
# FUZZ_ARGS (more libFuzzer flags for the random run, e.g. -runs=N).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD_DIR="${BUILD_DIR:-$ROOT/build-asan}"
FUZZER="$BUILD_DIR/bin/pipeline-fuzz"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
CUDA_PATH="${CUDA_PATH:-${CUDA_HOME:-/usr/local/cuda}}"

if [ ! -x "$FUZZER" ]; then
  echo "fuzz: error: $FUZZER missing (scripts/test-sanitizers.sh builds it)" >&2
  exit 1
fi

if [ "${1:-}" = --replay ]; then
  shift
  REPLAY_DIR="$BUILD_DIR/fuzz-replay"
  if [ -z "${PIPELINE_FUZZ_PTXAS+x}" ]; then
    if [ -x "$CUDA_PATH/bin/ptxas" ]; then
      PIPELINE_FUZZ_PTXAS=1
    else
      PIPELINE_FUZZ_PTXAS=0
      echo "fuzz: note: no ptxas in $CUDA_PATH: the replay does not assemble" >&2
    fi
  fi
  export PIPELINE_FUZZ_LOWER="${PIPELINE_FUZZ_LOWER:-1}"
  export PIPELINE_FUZZ_PTXAS PIPELINE_FUZZ_CUDA="$CUDA_PATH"
  export PIPELINE_FUZZ_STATS="$REPLAY_DIR/stats"
  source "$ROOT/scripts/sanitizer-env.sh"
  # The seeds are rebuilt from the tree on every replay, so that no seed of
  # an older test file stays.
  rm -rf "$REPLAY_DIR"
  mkdir -p "$REPLAY_DIR/seeds"
  if [ "$#" -eq 0 ]; then
    python3 "$ROOT/fuzz/make-corpus.py" "$ROOT" "$REPLAY_DIR/seeds" "$REPLAY_DIR/pipeline.dict"
    set -- "$REPLAY_DIR/seeds" "$ROOT/fuzz/regressions"
  fi
  echo "fuzz: replay: lower every ${PIPELINE_FUZZ_LOWER} input that passes the checkers, assemble every ${PIPELINE_FUZZ_PTXAS} that lowers (0: none)"
  # A hang is a finding too, with a generous limit: a loaded machine must
  # not turn a slow input into a failure (the slowest takes about 2 s).
  exec python3 "$ROOT/fuzz/replay.py" --timeout 120 --log "$REPLAY_DIR/replay.log" \
    "$FUZZER" "$@"
fi

FUZZ_DIR="${FUZZ_DIR:-$BUILD_DIR/fuzz}"
SECONDS_TO_RUN="${1:-60}"
if [ -z "${PIPELINE_FUZZ_PTXAS+x}" ]; then
  if [ -x "$CUDA_PATH/bin/ptxas" ]; then PIPELINE_FUZZ_PTXAS=50; else PIPELINE_FUZZ_PTXAS=0; fi
fi
export PIPELINE_FUZZ_LOWER="${PIPELINE_FUZZ_LOWER:-1}"
export PIPELINE_FUZZ_PTXAS PIPELINE_FUZZ_CUDA="$CUDA_PATH"
# Every fuzzing process appends its counts here at exit.
export PIPELINE_FUZZ_STATS="$FUZZ_DIR/stats"
# The same sanitizer settings as the lit run.
source "$ROOT/scripts/sanitizer-env.sh"

mkdir -p "$FUZZ_DIR/seeds" "$FUZZ_DIR/corpus" "$FUZZ_DIR/artifacts"
python3 "$ROOT/fuzz/make-corpus.py" "$ROOT" "$FUZZ_DIR/seeds" "$FUZZ_DIR/pipeline.dict"
rm -f "$FUZZ_DIR"/artifacts/* "$PIPELINE_FUZZ_STATS"

time_args=()
[ "$SECONDS_TO_RUN" != 0 ] && time_args=(-max_total_time="$SECONDS_TO_RUN")
# One worker process (-fork=1) that keeps going after a crash, a timeout or
# an out-of-memory input, so that a known upstream crash does not end the
# run; every finding is left in artifacts/ for triage.py.
start=$(date +%s)
set +e
"$FUZZER" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -timeout=20 -rss_limit_mb=4096 -max_len=65536 "${time_args[@]}" \
  -dict="$FUZZ_DIR/pipeline.dict" -artifact_prefix="$FUZZ_DIR/artifacts/" \
  -print_final_stats=1 ${FUZZ_ARGS:-} \
  "$FUZZ_DIR/corpus" "$FUZZ_DIR/seeds" "$ROOT/fuzz/regressions" > "$FUZZ_DIR/fuzz.log" 2>&1
rc=$?
set -e
# The last progress line: executions, coverage, findings so far.
grep -E "^#[0-9]+: cov:" "$FUZZ_DIR/fuzz.log" | tail -1 || true
echo "fuzz: libFuzzer exit $rc after $(( $(date +%s) - start )) s (log: $FUZZ_DIR/fuzz.log)"
# What the inputs reached, summed over the processes (a process that
# crashed wrote none: its job's inputs are missing from the sums).
if [ -f "$PIPELINE_FUZZ_STATS" ]; then
  awk '{ for (i = 1; i < NF; i += 2) sum[$i] += $(i + 1); n++ }
       END { printf "fuzz: %d processes: %d inputs, %d parsed, %d passed the checkers, %d lowered for sm_90a and sm_100a (every %s), %d assembled by ptxas\n",
             n, sum["inputs"], sum["parsed"], sum["checked"], sum["lowered"], lower, sum["assembled"] }' \
    lower="$PIPELINE_FUZZ_LOWER" "$PIPELINE_FUZZ_STATS"
fi

mapfile -t artifacts < <(find "$FUZZ_DIR/artifacts" -type f | sort)
if [ "${#artifacts[@]}" -eq 0 ]; then
  if [ "$rc" -ne 0 ]; then
    echo "fuzz: error: libFuzzer failed without leaving a finding" >&2
    tail -20 "$FUZZ_DIR/fuzz.log" >&2
    exit 1
  fi
  echo "fuzz: no findings"
  exit 0
fi
python3 "$ROOT/fuzz/triage.py" "$FUZZER" "$ROOT" "${artifacts[@]}"
