#!/bin/sh
# A batch as N shards run by GNU parallel: here on this machine, or across
# hosts that share the working directory with --sshloginfile HOSTS --workdir .
# Usage: gnu-parallel.sh MANIFEST.json [SHARDS]
set -eu
manifest=${1:?usage: gnu-parallel.sh MANIFEST.json [SHARDS]}
shards=${2:-3}
seq 0 $((shards - 1)) | parallel --will-cite --halt never --line-buffer \
    fluidgradient batch "$manifest" --shard {}/"$shards" --jobs 1 --quiet
