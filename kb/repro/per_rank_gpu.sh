#!/bin/sh
# Launcher shim for torchrun --no-python: each rank sees only its own GPU,
# as under Slurm's --gpus-per-task=1 or a per-rank CUDA_VISIBLE_DEVICES.
export CUDA_VISIBLE_DEVICES="$LOCAL_RANK"
exec python3 "$@"
