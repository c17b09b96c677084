// Provokes the CUDA peer-access errors on a machine with two or more GPUs
// whose P2P works, and prints what the runtime and driver APIs return.
// Build: nvcc -o p2p_errors p2p_errors.cu -lcuda
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

static void report(const char *what, cudaError_t err) {
  printf("%-58s -> %s: %s\n", what, cudaGetErrorName(err), cudaGetErrorString(err));
  cudaGetLastError();  // clear the sticky-free error so the next case starts clean
}

static void reportDrv(const char *what, CUresult res) {
  const char *name = "?", *msg = "?";
  cuGetErrorName(res, &name);
  cuGetErrorString(res, &msg);
  printf("%-58s -> %s: %s\n", what, name, msg);
}

int main() {
  int n = 0;
  report("cudaGetDeviceCount", cudaGetDeviceCount(&n));
  printf("devices: %d\n", n);
  if (n < 1) return 1;

  int can = -1;
  cudaSetDevice(0);
  report("cudaDeviceEnablePeerAccess(0) on device 0 (itself)", cudaDeviceEnablePeerAccess(0, 0));
  report("cudaDeviceEnablePeerAccess(99) on device 0", cudaDeviceEnablePeerAccess(99, 0));
  report("cudaDeviceCanAccessPeer(&can, 0, 99)", cudaDeviceCanAccessPeer(&can, 0, 99));
  report("cudaDeviceEnablePeerAccess(1, flags=1) on device 0", cudaDeviceEnablePeerAccess(1, 1));
  if (n >= 2) {
    report("cudaDeviceCanAccessPeer(&can, 0, 1)", cudaDeviceCanAccessPeer(&can, 0, 1));
    printf("canAccessPeer 0->1: %d\n", can);
    report("cudaDeviceDisablePeerAccess(1) before enabling", cudaDeviceDisablePeerAccess(1));
    report("cudaDeviceEnablePeerAccess(1) first call", cudaDeviceEnablePeerAccess(1, 0));
    report("cudaDeviceEnablePeerAccess(1) second call", cudaDeviceEnablePeerAccess(1, 0));
    report("cudaDeviceDisablePeerAccess(1)", cudaDeviceDisablePeerAccess(1));
    void *a = nullptr, *b = nullptr;
    cudaSetDevice(0); cudaMalloc(&a, 1 << 20);
    cudaSetDevice(1); cudaMalloc(&b, 1 << 20);
    report("cudaMemcpyPeer(b, 1, a, 0, 1 MiB) without peer access", cudaMemcpyPeer(b, 1, a, 0, 1 << 20));
    report("cudaMemcpyPeer(b, 99, a, 0, 1 MiB) bad device", cudaMemcpyPeer(b, 99, a, 0, 1 << 20));
    cudaSetDevice(0);
    int attr = -1;
    report("cudaDeviceGetP2PAttribute(AccessSupported, 0, 1)", cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 0, 1));
    printf("P2P access supported 0->1: %d\n", attr);
    report("cudaDeviceGetP2PAttribute(AccessSupported, 0, 0)", cudaDeviceGetP2PAttribute(&attr, cudaDevP2PAttrAccessSupported, 0, 0));
  }

  // The driver API reports the same conditions under other names.
  cuInit(0);
  CUdevice d0, d1;
  CUcontext c0, c1;
  cuDeviceGet(&d0, 0);
  cuDevicePrimaryCtxRetain(&c0, d0);
  cuCtxSetCurrent(c0);
  reportDrv("cuCtxEnablePeerAccess(own context)", cuCtxEnablePeerAccess(c0, 0));
  if (n >= 2) {
    cuDeviceGet(&d1, 1);
    cuDevicePrimaryCtxRetain(&c1, d1);
    cuCtxSetCurrent(c0);
    reportDrv("cuCtxDisablePeerAccess(ctx1) before enabling", cuCtxDisablePeerAccess(c1));
    reportDrv("cuCtxEnablePeerAccess(ctx1) first call", cuCtxEnablePeerAccess(c1, 0));
    reportDrv("cuCtxEnablePeerAccess(ctx1) second call", cuCtxEnablePeerAccess(c1, 0));
    int v = -1;
    reportDrv("cuDeviceCanAccessPeer(&v, d0, d1)", cuDeviceCanAccessPeer(&v, d0, d1));
    printf("cuDeviceCanAccessPeer 0->1: %d\n", v);
  }
  reportDrv("cuDeviceGet(&d, 99)", cuDeviceGet(&d1, 99));
  return 0;
}
