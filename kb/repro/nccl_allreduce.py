# An all-reduce over NCCL, one process a GPU, to see which transport NCCL
# picks between the GPUs. Run: NCCL_DEBUG=INFO torchrun --nproc_per_node=2 nccl_allreduce.py
# Keep NCCL_NVLS_ENABLE=0 on shared machines: NVLink multicast is not needed here.
# FORCE_DEVICE=N puts every rank on GPU N, the mistake NCCL reports as a duplicate GPU.
import os

import torch
import torch.distributed as dist

dist.init_process_group("nccl")
rank = dist.get_rank()
torch.cuda.set_device(int(os.environ.get("FORCE_DEVICE", rank)))
x = torch.ones(1 << 20, device="cuda") * (rank + 1)
dist.all_reduce(x)
torch.cuda.synchronize()
if rank == 0:
    print(f"all_reduce sum = {x[0].item()} (expected {sum(range(1, dist.get_world_size() + 1))})", flush=True)
dist.destroy_process_group()
