#!/bin/bash
# Ranks that each see only their own GPU's device node and run unprivileged,
# as in one container per rank or Slurm's per-task device cgroups.
# NVLink multicast stays off.
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export PYTHONUNBUFFERED=1
D="$(cd "$(dirname "$0")" && pwd)"
OUT="${OUT:-/tmp/out}"; mkdir -p "$OUT"
cd "$D"
chmod -R a+rX "$D"; chmod 1777 /dev/shm; p="$D"; while [ "$p" != / ]; do chmod a+x "$p"; p=$(dirname "$p"); done
TR="torchrun --nproc_per_node=2 --master_port=29513"
tc() {
  local name=$1; shift
  echo "===== case: $name"
  echo "env: $*"
  timeout 75 env NCCL_DEBUG=INFO FORCE_DEVICE=0 "$@" 2>&1; echo "rc=$?"
}
if [ "$1" = workarounds ]; then
{
  tc isolated_p2p_shm_disable NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 $TR --no-python ./per_rank_gpu_isolated.sh nccl_allreduce.py
  tc isolated_p2p_disable_cumem_host0 NCCL_P2P_DISABLE=1 NCCL_CUMEM_HOST_ENABLE=0 $TR --no-python ./per_rank_gpu_isolated.sh nccl_allreduce.py
  tc isolated_p2p_disable_cumem0 NCCL_P2P_DISABLE=1 NCCL_CUMEM_ENABLE=0 $TR --no-python ./per_rank_gpu_isolated.sh nccl_allreduce.py
} >"$OUT/isolated_workarounds.log" 2>&1
echo done; exit 0
fi
{
  echo "===== case: sanity (each isolated rank alone)"
  for r in 0 1; do LOCAL_RANK=$r timeout 60 ./per_rank_gpu_isolated.sh -c 'import torch; print("devices", torch.cuda.device_count(), "bus", torch.cuda.get_device_properties(0).pci_bus_id if torch.cuda.device_count() else None)' 2>&1 | tail -3; done
  tc isolated_default $TR --no-python ./per_rank_gpu_isolated.sh nccl_allreduce.py
  tc isolated_cumem0 NCCL_CUMEM_ENABLE=0 $TR --no-python ./per_rank_gpu_isolated.sh nccl_allreduce.py
  tc isolated_p2p_disable NCCL_P2P_DISABLE=1 $TR --no-python ./per_rank_gpu_isolated.sh nccl_allreduce.py
} >"$OUT/isolated.log" 2>&1
echo done
