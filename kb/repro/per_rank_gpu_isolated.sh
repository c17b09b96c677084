#!/bin/sh
# Launcher shim for torchrun --no-python: each rank sees only its own GPU's
# device node and runs as an unprivileged user, as in one container per rank
# (docker --gpus device=N) or Slurm's per-task GPU binding with device
# cgroups. Run as root: it makes a private mount namespace whose /dev holds
# /dev/nvidia$LOCAL_RANK only, then drops to user nobody (as root, the CUDA
# driver would recreate the missing device nodes).
exec unshare -m sh -c '
  R=$0
  d=/tmp/isolated-dev-$R; mkdir -p $d; mount -t tmpfs tmpfs $d || exit 1
  for n in null zero random urandom full tty nvidiactl nvidia-uvm nvidia-uvm-tools nvidia$R; do
    [ -e /dev/$n ] && cp -a /dev/$n $d/
  done
  mkdir -p $d/shm $d/pts && mount --bind /dev/shm $d/shm && mount --bind /dev/pts $d/pts
  mount --rbind $d /dev || exit 1
  mkdir -p /tmp/home-$R && chown 65534:65534 /tmp/home-$R
  echo "rank $R: /dev has $(ls /dev | grep nvidia | tr "\n" " ")"
  exec setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp/home-$R CUDA_VISIBLE_DEVICES=0 python3 "$@"' "$LOCAL_RANK" "$@"
