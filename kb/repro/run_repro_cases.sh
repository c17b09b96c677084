#!/bin/bash
# Runs every NCCL, CUDA IPC and shared-memory case on a machine with two
# NVLinked GPUs; each case's output goes to one combined log under $OUT with
# a "===== case: NAME" line before it. NVLink multicast stays off throughout.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
D="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/out}"; mkdir -p "$OUT"
W=/tmp/p2pkb-repro; mkdir -p $W

env_log="$OUT/env.log"
{
  echo "===== case: machine"
  nvidia-smi; nvidia-smi topo -m
  for k in r w n a; do echo "--- nvidia-smi topo -p2p $k"; nvidia-smi topo -p2p $k; done
  echo "--- nvidia-smi -q (fabric)"; nvidia-smi -q | grep -A4 -E '^\s+Fabric' | head -20
  echo "--- nvidia-smi nvlink -s (head)"; nvidia-smi nvlink -s | head -8
  echo "--- imex channels"; ls -l /dev/nvidia-caps-imex-channels 2>&1
  echo "--- /dev/shm"; df -h /dev/shm; mount | grep -E ' /dev/shm ' 
  echo "--- nccl"; python3 -c 'import torch; print(torch.__version__, torch.cuda.nccl.version())'
  cat /proc/driver/nvidia/version; uname -r; id -u
  echo "--- fabric manager"; (systemctl status nvidia-fabricmanager 2>&1 || true) | head -5; pgrep -a nv-fabricmanager || echo "no nv-fabricmanager process"
} >"$env_log" 2>&1

ipc_log="$OUT/ipc.log"
{
  echo "===== case: build"
  nvcc -o $W/ipc_errors "$D/ipc_errors.cu" -lcuda 2>&1 && echo "built"
  nvcc -o $W/p2p_errors "$D/p2p_errors.cu" -lcuda 2>&1 && echo "built p2p_errors"
  echo "===== case: local"
  timeout 60 $W/ipc_errors local; echo "rc=$?"
  run_pair() { # name, producer env, consumer env, consumer device
    echo "===== case: $1"
    rm -f $W/h $W/done
    env $2 $W/ipc_errors produce $W/h $W/done &
    pp=$!
    for i in $(seq 100); do [ -s $W/h ] && break; sleep 0.1; done
    env $3 timeout 60 $W/ipc_errors consume $W/h $4; echo "consumer rc=$?"
    touch $W/done; wait $pp; echo "producer rc=$?"
  }
  run_pair same_visibility_other_gpu "CUDA_VISIBLE_DEVICES=0,1" "CUDA_VISIBLE_DEVICES=0,1" 1
  run_pair same_visibility_same_gpu "CUDA_VISIBLE_DEVICES=0,1" "CUDA_VISIBLE_DEVICES=0,1" 0
  run_pair consumer_sees_only_gpu1 "CUDA_VISIBLE_DEVICES=0" "CUDA_VISIBLE_DEVICES=1" 0
  run_pair consumer_sees_gpus_reversed "CUDA_VISIBLE_DEVICES=0,1" "CUDA_VISIBLE_DEVICES=1,0" 0
  echo "===== case: producer_gone"
  rm -f $W/h $W/done; touch $W/done
  $W/ipc_errors produce $W/h $W/done
  timeout 60 $W/ipc_errors consume $W/h 1; echo "consumer rc=$?"
  echo "===== case: p2p_errors (peer access twice, for the record)"
  timeout 60 $W/p2p_errors; echo "rc=$?"
} >"$ipc_log" 2>&1

nccl_log="$OUT/nccl.log"
tc() { # name, env..., then -- launcher args
  local name=$1; shift
  echo "===== case: $name"
  echo "env: $*"
  timeout 75 env NCCL_DEBUG=INFO "$@" 2>&1; echo "rc=$?"
}
{
  cd "$D"
  TR="torchrun --nproc_per_node=2 --master_port=29511"
  tc cumem0 NCCL_CUMEM_ENABLE=0 $TR nccl_allreduce.py
  tc cumem1 NCCL_CUMEM_ENABLE=1 $TR nccl_allreduce.py
  tc per_rank_visible_set_device_local_rank $TR --no-python ./per_rank_gpu.sh nccl_allreduce.py
  tc per_rank_visible FORCE_DEVICE=0 $TR --no-python ./per_rank_gpu.sh nccl_allreduce.py
  tc per_rank_visible_cumem0 FORCE_DEVICE=0 NCCL_CUMEM_ENABLE=0 $TR --no-python ./per_rank_gpu.sh nccl_allreduce.py
  tc per_rank_visible_p2p_disable FORCE_DEVICE=0 NCCL_P2P_DISABLE=1 $TR --no-python ./per_rank_gpu.sh nccl_allreduce.py
} >"$nccl_log" 2>&1

shm_log="$OUT/shm.log"
{
  cd "$D"
  TR="torchrun --nproc_per_node=2 --master_port=29512"
  for c in "small_shm_p2p_off NCCL_P2P_DISABLE=1" "small_shm_p2p_off_cumem0 NCCL_P2P_DISABLE=1 NCCL_CUMEM_ENABLE=0 NCCL_CUMEM_HOST_ENABLE=0" "small_shm_default"; do
    set -- $c; name=$1; shift
    echo "===== case: $name (/dev/shm is a 1 MiB tmpfs in a private mount namespace)"
    echo "env: $*"
    timeout 75 unshare -m bash -c "mount -t tmpfs -o size=1M tmpfs /dev/shm && df -h /dev/shm && env NCCL_DEBUG=INFO $* $TR nccl_allreduce.py" 2>&1; echo "rc=$?"
  done
  echo "===== case: noshm_dir (/dev/shm mounted read-only)"
  timeout 75 unshare -m bash -c "mount -t tmpfs -o size=1M,ro tmpfs /dev/shm && env NCCL_DEBUG=INFO NCCL_P2P_DISABLE=1 $TR nccl_allreduce.py" 2>&1; echo "rc=$?"
} >"$shm_log" 2>&1
echo done
