#!/bin/bash
# One ic-check search as a Slurm job array: task K of the array explores shard K of
# N (N = the array's size), and `ic-check merge` gives the whole run's result once
# every task is done. docs/cli.md, "Spreading a run over machines".
#
#   sbatch --array=1-256%32 --export=ALL,PROGRAM=lastzero.ic,ALGO=sdpor,ARGS="-D N=15" slurm-shards.sh
#   sbatch --dependency=afterok:<the array's job id> \
#          --wrap "ic-check merge --json results/*.json > result.json"
#
# A task exits 0 once its shard file is written, whatever the shard found (so that
# `afterok` holds, and nothing is retried): the merge's exit status is the verdict.
#SBATCH --job-name=ic-check-shards
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --output=shard-%a.log
set -euo pipefail

: "${PROGRAM:?the program to check}"
ALGO=${ALGO:-odpor}
ARGS=${ARGS:-}
RESULTS=${RESULTS:-results}
K=$SLURM_ARRAY_TASK_ID
N=$SLURM_ARRAY_TASK_COUNT

mkdir -p "$RESULTS"
# Written under another name and renamed: a task killed midway leaves no file that
# the merge could take for a finished shard.
# shellcheck disable=SC2086 # ARGS holds several words
ic-check --quiet --jobs "${SLURM_CPUS_PER_TASK:-1}" --algo "$ALGO" $ARGS "$PROGRAM" \
    --partition "$K/$N" > "$RESULTS/shard-$K.json.part"
mv "$RESULTS/shard-$K.json.part" "$RESULTS/shard-$K.json"
