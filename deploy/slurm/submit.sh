#!/usr/bin/env bash
# Grades a class on a Slurm cluster: N array tasks each run `grader run --shard K/N` (K is
# SLURM_ARRAY_TASK_ID), then one job, depending on the array, runs `grader merge`.
#
#   deploy/slurm/submit.sh N SUITES SUBMISSIONS OUT [sbatch options...]
#
# SUITES, SUBMISSIONS and OUT must be on a file system every node sees. Shard K writes OUT/shard-K,
# the merge writes OUT/results (as one `grader run --out OUT/results` would), logs go to OUT/logs.
# GRADER names the grader binary on the nodes (default: `grader` on their PATH). Options after OUT go
# to both sbatch calls (`--partition=short`, `--time=1:00:00`).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 N SUITES SUBMISSIONS OUT [sbatch options...]" >&2
  exit 2
fi
shards=$1 suites=$(realpath "$2") submissions=$(realpath "$3")
mkdir -p "$4/logs"
out=$(realpath "$4")
shift 4
case $shards in
  '' | *[!0-9]* | 0) echo "error: N must be a whole number of shards, at least 1 (got \`$shards\`)" >&2; exit 2 ;;
esac
here=$(dirname "$(realpath "$0")")
export GRADER=${GRADER:-grader} SUITES=$suites SUBMISSIONS=$submissions OUT=$out SHARDS=$shards
array=$(sbatch --parsable --array="1-$shards" --export=ALL \
  --output="$out/logs/grade-%A_%a.out" "$@" "$here/grade.sbatch")
array=${array%%;*}
# afterany, not afterok: a shard that exits 3 (a toolchain missing on its node) still wrote its
# results, and `grader merge` names any shard that did not finish.
merge=$(sbatch --parsable --dependency="afterany:$array" --export=ALL \
  --output="$out/logs/merge-%j.out" "$@" "$here/merge.sbatch")
merge=${merge%%;*}
echo "array job $array ($shards shards), merge job $merge: results in $out/results"
