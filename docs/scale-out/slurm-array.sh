#!/bin/bash
# One shard of an EnviroBench run per task of a Slurm job array (docs/scale-out.md).
#
#   RUN_ID=ts-2025-06-01 sbatch --array=0-3 docs/scale-out/slurm-array.sh
#
# Each task makes its shard (--shard auto: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT) in a
# scratch directory of its own and archives it to STORE, which is all the nodes share. Then, on
# any machine with the dataset:
#
#   envirobench merge --run "$RUN_ID" --store "$STORE" --benchmark table-separators
#
# Number the array from 0. A failed task is rerun alone; an array of one task has a count of 1,
# so give the number of shards:
#
#   RUN_ID=ts-2025-06-01 ENVIROBENCH_SHARD_COUNT=4 sbatch --array=2 docs/scale-out/slurm-array.sh
#
# --resume makes submitting the whole array again safe: the shards already in STORE are skipped.
#
#SBATCH --job-name=envirobench-shard
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=envirobench-shard-%A_%a.out
set -euo pipefail

: "${RUN_ID:?set RUN_ID, the ID of the run the shards make up}"
# A private store (docs/stores.md); S3 credentials come from where boto3 looks (the environment,
# ~/.aws). A file:///shared/dir store works as well on a file system every node mounts.
STORE="${STORE:-s3://acme-bench/envirobench}"
ENVIROBENCH="${ENVIROBENCH:-envirobench}"

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/envirobench-shard.XXXXXX")"
trap 'rm -rf "$SCRATCH"' EXIT

"$ENVIROBENCH" run \
    --adapter reference --model reference/projection-profiles \
    --benchmark table-separators --dataset table-separators=envirobench/table-separators-synthetic-v1 \
    --budget 0 --no-network \
    --run "$RUN_ID" --shard auto --store "$STORE" --resume \
    --results "$SCRATCH/results"
