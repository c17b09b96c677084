# Provokes the PyTorch messages of peer-access and device-ordinal mistakes on
# a machine with two or more GPUs, and prints each exception as raised.
import os
import traceback

import torch


def attempt(what, fn):
    try:
        out = fn()
        print(f"{what} -> ok: {out}")
    except Exception as e:  # print exactly what a user would see
        print(f"{what} -> {type(e).__name__}: {e}")


print("torch", torch.__version__, "cuda", torch.version.cuda, "devices", torch.cuda.device_count())
print("CUDA_VISIBLE_DEVICES", os.environ.get("CUDA_VISIBLE_DEVICES"))
n = torch.cuda.device_count()
attempt("torch.cuda.can_device_access_peer(0, 1)", lambda: torch.cuda.can_device_access_peer(0, 1))
attempt("torch.cuda.can_device_access_peer(0, 0)", lambda: torch.cuda.can_device_access_peer(0, 0))
attempt(f"torch.cuda.can_device_access_peer(0, {n})", lambda: torch.cuda.can_device_access_peer(0, n))
attempt(f"torch.zeros(1, device='cuda:{n}')", lambda: torch.zeros(1, device=f"cuda:{n}"))
attempt(f"torch.cuda.set_device({n})", lambda: torch.cuda.set_device(n))
attempt("torch.cuda.get_device_name(0)", lambda: torch.cuda.get_device_name(0))
if n >= 2:
    a = torch.ones(1 << 20, device="cuda:0")
    attempt("copy cuda:0 -> cuda:1", lambda: a.to("cuda:1").sum().item())
