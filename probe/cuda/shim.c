// Loads libcuda.so.1 at run time and calls through function pointers, so
// the probe starts on machines without the NVIDIA driver. Each pointer is
// looked up by its versioned name (cuMemAlloc_v2, ...): the unversioned
// symbols are the pre-CUDA-3.2 API with 32-bit sizes.
#include <dlfcn.h>
#include <string.h>
#include <stdio.h>
#include "shim.h"

#define CUDA_ERROR_NOT_FOUND 500

static void *lib;
static char missing[512];

#define FN(ret, name, sym, params, args) \
	static ret (*fp_##name) params; \
	ret p2p_##name params { if (!fp_##name) return CUDA_ERROR_NOT_FOUND; return fp_##name args; }

FN(CUresult, cuInit, "cuInit", (unsigned int flags), (flags))
FN(CUresult, cuDriverGetVersion, "cuDriverGetVersion", (int *v), (v))
FN(CUresult, cuGetErrorName, "cuGetErrorName", (CUresult r, const char **name), (r, name))
FN(CUresult, cuDeviceGetCount, "cuDeviceGetCount", (int *n), (n))
FN(CUresult, cuDeviceGet, "cuDeviceGet", (CUdevice *d, int ordinal), (d, ordinal))
FN(CUresult, cuDeviceGetName, "cuDeviceGetName", (char *name, int len, CUdevice d), (name, len, d))
FN(CUresult, cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId", (char *id, int len, CUdevice d), (id, len, d))
FN(CUresult, cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer", (int *can, CUdevice d, CUdevice peer), (can, d, peer))
FN(CUresult, cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute", (int *v, int attr, CUdevice src, CUdevice dst), (v, attr, src, dst))
FN(CUresult, cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", (CUcontext *ctx, CUdevice d), (ctx, d))
FN(CUresult, cuCtxSetCurrent, "cuCtxSetCurrent", (CUcontext ctx), (ctx))
FN(CUresult, cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess", (CUcontext peer, unsigned int flags), (peer, flags))
FN(CUresult, cuCtxSynchronize, "cuCtxSynchronize", (void), ())
FN(CUresult, cuCtxDisablePeerAccess, "cuCtxDisablePeerAccess", (CUcontext peer), (peer))
FN(CUresult, cuMemAlloc, "cuMemAlloc_v2", (CUdeviceptr *p, size_t n), (p, n))
FN(CUresult, cuMemHostAlloc, "cuMemHostAlloc", (void **p, size_t n, unsigned int flags), (p, n, flags))
FN(CUresult, cuMemsetD32, "cuMemsetD32_v2", (CUdeviceptr p, unsigned int v, size_t n), (p, v, n))
FN(CUresult, cuMemcpyHtoD, "cuMemcpyHtoD_v2", (CUdeviceptr dst, const void *src, size_t n), (dst, src, n))
FN(CUresult, cuMemcpyDtoH, "cuMemcpyDtoH_v2", (void *dst, CUdeviceptr src, size_t n), (dst, src, n))
FN(CUresult, cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", (CUdeviceptr dst, const void *src, size_t n, CUstream s), (dst, src, n, s))
FN(CUresult, cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", (void *dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s))
FN(CUresult, cuMemcpyAsync, "cuMemcpyAsync", (CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s), (dst, src, n, s))
FN(CUresult, cuMemcpyPeerAsync, "cuMemcpyPeerAsync", (CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n, CUstream s), (dst, dctx, src, sctx, n, s))
FN(CUresult, cuStreamCreate, "cuStreamCreate", (CUstream *s, unsigned int flags), (s, flags))
FN(CUresult, cuStreamSynchronize, "cuStreamSynchronize", (CUstream s), (s))
FN(CUresult, cuStreamWaitEvent, "cuStreamWaitEvent", (CUstream s, CUevent e, unsigned int flags), (s, e, flags))
FN(CUresult, cuEventCreate, "cuEventCreate", (CUevent *e, unsigned int flags), (e, flags))
FN(CUresult, cuEventRecord, "cuEventRecord", (CUevent e, CUstream s), (e, s))
FN(CUresult, cuEventElapsedTime, "cuEventElapsedTime", (float *ms, CUevent a, CUevent b), (ms, a, b))
FN(CUresult, cuIpcGetMemHandle, "cuIpcGetMemHandle", (CUipcMemHandle *h, CUdeviceptr p), (h, p))
FN(CUresult, cuIpcCloseMemHandle, "cuIpcCloseMemHandle", (CUdeviceptr p), (p))
FN(CUresult, cuMemGetAllocationGranularity, "cuMemGetAllocationGranularity", (size_t *g, const CUmemAllocationProp *prop, int option), (g, prop, option))
FN(CUresult, cuMemCreate, "cuMemCreate", (CUmemGenericAllocationHandle *h, size_t n, const CUmemAllocationProp *prop, unsigned long long flags), (h, n, prop, flags))
FN(CUresult, cuMemAddressReserve, "cuMemAddressReserve", (CUdeviceptr *p, size_t n, size_t align, CUdeviceptr addr, unsigned long long flags), (p, n, align, addr, flags))
FN(CUresult, cuMemMap, "cuMemMap", (CUdeviceptr p, size_t n, size_t off, CUmemGenericAllocationHandle h, unsigned long long flags), (p, n, off, h, flags))
FN(CUresult, cuMemSetAccess, "cuMemSetAccess", (CUdeviceptr p, size_t n, const CUmemAccessDesc *desc, size_t count), (p, n, desc, count))
FN(CUresult, cuMemExportToShareableHandle, "cuMemExportToShareableHandle", (void *out, CUmemGenericAllocationHandle h, int type, unsigned long long flags), (out, h, type, flags))
FN(CUresult, cuMemImportFromShareableHandle, "cuMemImportFromShareableHandle", (CUmemGenericAllocationHandle *h, void *os, int type), (h, os, type))
FN(CUresult, cuMemUnmap, "cuMemUnmap", (CUdeviceptr p, size_t n), (p, n))
FN(CUresult, cuMemAddressFree, "cuMemAddressFree", (CUdeviceptr p, size_t n), (p, n))
FN(CUresult, cuMemRelease, "cuMemRelease", (CUmemGenericAllocationHandle h), (h))

// The handle is a 64-byte struct passed by value; Go passes its address.
static CUresult (*fp_cuIpcOpenMemHandle)(CUdeviceptr *p, CUipcMemHandle h, unsigned int flags);
CUresult p2p_cuIpcOpenMemHandle(CUdeviceptr *p, CUipcMemHandle *h, unsigned int flags) {
	if (!fp_cuIpcOpenMemHandle) return CUDA_ERROR_NOT_FOUND;
	return fp_cuIpcOpenMemHandle(p, *h, flags);
}

// A POSIX descriptor travels in the pointer-sized osHandle argument.
CUresult p2p_importFD(CUmemGenericAllocationHandle *h, int fd) {
	return p2p_cuMemImportFromShareableHandle(h, (void *)(long)fd, 1);
}

static void *sym(const char *name) {
	void *p = dlsym(lib, name);
	if (!p && missing[0] == 0) snprintf(missing, sizeof missing, "%s", name);
	return p;
}

// Returns NULL when the library loaded, or dlerror's text.
const char *p2p_cuda_open(void) {
	if (lib) return NULL;
	lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!lib) return dlerror();
#define L(name, s) fp_##name = sym(s)
	L(cuInit, "cuInit");
	L(cuDriverGetVersion, "cuDriverGetVersion");
	L(cuGetErrorName, "cuGetErrorName");
	L(cuDeviceGetCount, "cuDeviceGetCount");
	L(cuDeviceGet, "cuDeviceGet");
	L(cuDeviceGetName, "cuDeviceGetName");
	L(cuDeviceGetPCIBusId, "cuDeviceGetPCIBusId");
	L(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
	L(cuDeviceGetP2PAttribute, "cuDeviceGetP2PAttribute");
	L(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
	L(cuCtxSetCurrent, "cuCtxSetCurrent");
	L(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
	L(cuCtxDisablePeerAccess, "cuCtxDisablePeerAccess");
	L(cuCtxSynchronize, "cuCtxSynchronize");
	L(cuMemAlloc, "cuMemAlloc_v2");
	L(cuMemHostAlloc, "cuMemHostAlloc");
	L(cuMemsetD32, "cuMemsetD32_v2");
	L(cuMemcpyHtoD, "cuMemcpyHtoD_v2");
	L(cuMemcpyDtoH, "cuMemcpyDtoH_v2");
	L(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2");
	L(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2");
	L(cuMemcpyAsync, "cuMemcpyAsync");
	L(cuMemcpyPeerAsync, "cuMemcpyPeerAsync");
	L(cuStreamCreate, "cuStreamCreate");
	L(cuStreamSynchronize, "cuStreamSynchronize");
	L(cuStreamWaitEvent, "cuStreamWaitEvent");
	L(cuEventCreate, "cuEventCreate");
	L(cuEventRecord, "cuEventRecord");
	L(cuEventElapsedTime, "cuEventElapsedTime");
	L(cuIpcGetMemHandle, "cuIpcGetMemHandle");
	L(cuIpcOpenMemHandle, "cuIpcOpenMemHandle_v2");
	L(cuIpcCloseMemHandle, "cuIpcCloseMemHandle");
	L(cuMemGetAllocationGranularity, "cuMemGetAllocationGranularity");
	L(cuMemCreate, "cuMemCreate");
	L(cuMemAddressReserve, "cuMemAddressReserve");
	L(cuMemMap, "cuMemMap");
	L(cuMemSetAccess, "cuMemSetAccess");
	L(cuMemExportToShareableHandle, "cuMemExportToShareableHandle");
	L(cuMemImportFromShareableHandle, "cuMemImportFromShareableHandle");
	L(cuMemUnmap, "cuMemUnmap");
	L(cuMemAddressFree, "cuMemAddressFree");
	L(cuMemRelease, "cuMemRelease");
#undef L
	return NULL;
}

// Copies the name of the first symbol the library lacked; 0 when none.
int p2p_cuda_missing(char *buf, int len) {
	if (missing[0] == 0) return 0;
	snprintf(buf, len, "%s", missing);
	return 1;
}
