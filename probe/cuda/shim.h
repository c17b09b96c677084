// The few CUDA driver API types and prototypes the probe calls, written out
// here because the probe is built without the CUDA toolkit. Layouts follow
// cuda.h of CUDA 12 and 13, which agree on them.
#include <stddef.h>

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUstream;
typedef void *CUevent;
typedef unsigned long long CUdeviceptr;
typedef unsigned long long CUmemGenericAllocationHandle;
typedef struct { char reserved[64]; } CUipcMemHandle;
typedef struct { int type; int id; } CUmemLocation;
typedef struct {
	int type;
	int requestedHandleTypes;
	CUmemLocation location;
	void *win32HandleMetaData;
	struct {
		unsigned char compressionType;
		unsigned char gpuDirectRDMACapable;
		unsigned short usage;
		unsigned char reserved[4];
	} allocFlags;
} CUmemAllocationProp;
typedef struct { CUmemLocation location; int flags; } CUmemAccessDesc;

const char *p2p_cuda_open(void);
int p2p_cuda_missing(char *buf, int len);

CUresult p2p_cuInit(unsigned int flags);
CUresult p2p_cuDriverGetVersion(int *v);
CUresult p2p_cuGetErrorName(CUresult r, const char **name);
CUresult p2p_cuDeviceGetCount(int *n);
CUresult p2p_cuDeviceGet(CUdevice *d, int ordinal);
CUresult p2p_cuDeviceGetName(char *name, int len, CUdevice d);
CUresult p2p_cuDeviceGetPCIBusId(char *id, int len, CUdevice d);
CUresult p2p_cuDeviceCanAccessPeer(int *can, CUdevice d, CUdevice peer);
CUresult p2p_cuDeviceGetP2PAttribute(int *v, int attr, CUdevice src, CUdevice dst);
CUresult p2p_cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice d);
CUresult p2p_cuCtxSetCurrent(CUcontext ctx);
CUresult p2p_cuCtxEnablePeerAccess(CUcontext peer, unsigned int flags);
CUresult p2p_cuCtxSynchronize(void);
CUresult p2p_cuCtxDisablePeerAccess(CUcontext peer);
CUresult p2p_cuMemAlloc(CUdeviceptr *p, size_t n);
CUresult p2p_cuMemHostAlloc(void **p, size_t n, unsigned int flags);
CUresult p2p_cuMemsetD32(CUdeviceptr p, unsigned int v, size_t n);
CUresult p2p_cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t n);
CUresult p2p_cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t n);
CUresult p2p_cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s);
CUresult p2p_cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s);
CUresult p2p_cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s);
CUresult p2p_cuMemcpyPeerAsync(CUdeviceptr dst, CUcontext dctx, CUdeviceptr src, CUcontext sctx, size_t n, CUstream s);
CUresult p2p_cuStreamCreate(CUstream *s, unsigned int flags);
CUresult p2p_cuStreamSynchronize(CUstream s);
CUresult p2p_cuStreamWaitEvent(CUstream s, CUevent e, unsigned int flags);
CUresult p2p_cuEventCreate(CUevent *e, unsigned int flags);
CUresult p2p_cuEventRecord(CUevent e, CUstream s);
CUresult p2p_cuEventElapsedTime(float *ms, CUevent a, CUevent b);
CUresult p2p_cuIpcGetMemHandle(CUipcMemHandle *h, CUdeviceptr p);
CUresult p2p_cuIpcOpenMemHandle(CUdeviceptr *p, CUipcMemHandle *h, unsigned int flags);
CUresult p2p_cuIpcCloseMemHandle(CUdeviceptr p);
CUresult p2p_cuMemGetAllocationGranularity(size_t *g, const CUmemAllocationProp *prop, int option);
CUresult p2p_cuMemCreate(CUmemGenericAllocationHandle *h, size_t n, const CUmemAllocationProp *prop, unsigned long long flags);
CUresult p2p_cuMemAddressReserve(CUdeviceptr *p, size_t n, size_t align, CUdeviceptr addr, unsigned long long flags);
CUresult p2p_cuMemMap(CUdeviceptr p, size_t n, size_t off, CUmemGenericAllocationHandle h, unsigned long long flags);
CUresult p2p_cuMemSetAccess(CUdeviceptr p, size_t n, const CUmemAccessDesc *desc, size_t count);
CUresult p2p_cuMemExportToShareableHandle(void *out, CUmemGenericAllocationHandle h, int type, unsigned long long flags);
CUresult p2p_cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *h, void *os, int type);
CUresult p2p_cuMemUnmap(CUdeviceptr p, size_t n);
CUresult p2p_cuMemAddressFree(CUdeviceptr p, size_t n);
CUresult p2p_cuMemRelease(CUmemGenericAllocationHandle h);
CUresult p2p_importFD(CUmemGenericAllocationHandle *h, int fd);
