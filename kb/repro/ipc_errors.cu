// Provokes the CUDA IPC and cuMem sharing errors that sit under NCCL's and
// the frameworks' messages, and prints what the runtime and driver APIs
// return. Build: nvcc -o ipc_errors ipc_errors.cu -lcuda
//   ipc_errors local                 cases inside one process
//   ipc_errors produce FILE DONEFILE allocate on device 0, write its IPC handle
//                                    to FILE, wait until DONEFILE exists
//   ipc_errors consume FILE DEV      open the handle from FILE on device DEV twice
// Run produce and consume as separate processes, with the same or different
// CUDA_VISIBLE_DEVICES, to see what another process gets.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>
#include <cuda.h>
#include <cuda_runtime.h>

static void report(const char *what, cudaError_t err) {
  printf("%-62s -> %s: %s\n", what, cudaGetErrorName(err), cudaGetErrorString(err));
  cudaGetLastError();
}

static void reportDrv(const char *what, CUresult res) {
  const char *name = "?", *msg = "?";
  cuGetErrorName(res, &name);
  cuGetErrorString(res, &msg);
  printf("%-62s -> %s: %s\n", what, name, msg);
}

static int local() {
  int n = 0;
  report("cudaGetDeviceCount", cudaGetDeviceCount(&n));
  printf("devices: %d\n", n);
  cudaSetDevice(0);
  void *d = nullptr;
  cudaMalloc(&d, 1 << 20);
  cudaIpcMemHandle_t h;
  report("cudaIpcGetMemHandle(cudaMalloc buffer)", cudaIpcGetMemHandle(&h, d));
  void *p = nullptr;
  report("cudaIpcOpenMemHandle in the process that made it", cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
  cudaIpcMemHandle_t zero;
  memset(&zero, 0, sizeof zero);
  report("cudaIpcOpenMemHandle(all-zero handle)", cudaIpcOpenMemHandle(&p, zero, cudaIpcMemLazyEnablePeerAccess));
  void *host = nullptr;
  cudaMallocHost(&host, 1 << 20);
  report("cudaIpcGetMemHandle(cudaMallocHost buffer)", cudaIpcGetMemHandle(&h, host));
  void *managed = nullptr;
  cudaMallocManaged(&managed, 1 << 20);
  report("cudaIpcGetMemHandle(cudaMallocManaged buffer)", cudaIpcGetMemHandle(&h, managed));
  void *pooled = nullptr;
  cudaMallocAsync(&pooled, 1 << 20, 0);
  cudaStreamSynchronize(0);
  report("cudaIpcGetMemHandle(cudaMallocAsync buffer)", cudaIpcGetMemHandle(&h, pooled));
  report("cudaIpcGetMemHandle(pointer into the middle of a buffer)", cudaIpcGetMemHandle(&h, (char *)d + 4096));

  // Driver API: virtual memory management (cuMem*), as NCCL uses with NCCL_CUMEM_ENABLE=1.
  cuInit(0);
  CUdevice dev;
  cuDeviceGet(&dev, 0);
  int v = -1;
  reportDrv("cuDeviceGetAttribute(HANDLE_TYPE_FABRIC_SUPPORTED)",
            cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_FABRIC_SUPPORTED, dev));
  printf("fabric handles supported: %d\n", v);
  reportDrv("cuDeviceGetAttribute(HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED)",
            cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev));
  printf("posix fd handles supported: %d\n", v);
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  size_t gran = 0;
  reportDrv("cuMemGetAllocationGranularity", cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
  CUmemGenericAllocationHandle mh;
  reportDrv("cuMemCreate(POSIX_FILE_DESCRIPTOR)", cuMemCreate(&mh, gran, &prop, 0));
  CUmemFabricHandle fh;
  reportDrv("cuMemExportToShareableHandle(FABRIC) of a POSIX-fd allocation",
            cuMemExportToShareableHandle(&fh, mh, CU_MEM_HANDLE_TYPE_FABRIC, 0));
  CUdeviceptr va = 0;
  cuMemAddressReserve(&va, gran, 0, 0, 0);
  reportDrv("cuMemMap", cuMemMap(va, gran, 0, mh, 0));
  CUmemAccessDesc acc = {};
  acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  acc.location.id = 99;
  reportDrv("cuMemSetAccess(device 99)", cuMemSetAccess(va, gran, &acc, 1));
  if (n >= 2) {
    acc.location.id = 1;
    reportDrv("cuMemSetAccess(peer device 1)", cuMemSetAccess(va, gran, &acc, 1));
  }
  acc.location.id = 0;
  reportDrv("cuMemSetAccess(own device 0)", cuMemSetAccess(va, gran, &acc, 1));
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_FABRIC;
  CUmemGenericAllocationHandle fabric;
  CUresult fr = cuMemCreate(&fabric, gran, &prop, 0);
  reportDrv("cuMemCreate(FABRIC)", fr);
  if (fr == CUDA_SUCCESS) {
    reportDrv("cuMemExportToShareableHandle(FABRIC)", cuMemExportToShareableHandle(&fh, fabric, CU_MEM_HANDLE_TYPE_FABRIC, 0));
    CUmemGenericAllocationHandle back;
    reportDrv("cuMemImportFromShareableHandle(FABRIC) in the same process",
              cuMemImportFromShareableHandle(&back, &fh, CU_MEM_HANDLE_TYPE_FABRIC));
  }
  memset(&fh, 0, sizeof fh);
  CUmemGenericAllocationHandle imp;
  reportDrv("cuMemImportFromShareableHandle(all-zero FABRIC handle)",
            cuMemImportFromShareableHandle(&imp, &fh, CU_MEM_HANDLE_TYPE_FABRIC));
  reportDrv("cuMemImportFromShareableHandle(fd -1, POSIX_FILE_DESCRIPTOR)",
            cuMemImportFromShareableHandle(&imp, (void *)(uintptr_t)-1, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
  return 0;
}

static int produce(const char *file, const char *donefile) {
  cudaSetDevice(0);
  void *d = nullptr;
  report("producer cudaMalloc on its device 0", cudaMalloc(&d, 1 << 20));
  cudaMemset(d, 7, 1 << 20);
  cudaDeviceSynchronize();
  cudaIpcMemHandle_t h;
  report("producer cudaIpcGetMemHandle", cudaIpcGetMemHandle(&h, d));
  FILE *f = fopen(file, "wb");
  fwrite(&h, sizeof h, 1, f);
  fclose(f);
  fflush(stdout);
  for (int i = 0; i < 600 && access(donefile, F_OK) != 0; i++) usleep(100000);
  return 0;
}

static int consume(const char *file, int dev) {
  int n = 0;
  cudaGetDeviceCount(&n);
  printf("consumer sees %d device(s), CUDA_VISIBLE_DEVICES=%s, uses device %d\n", n,
         getenv("CUDA_VISIBLE_DEVICES") ? getenv("CUDA_VISIBLE_DEVICES") : "(unset)", dev);
  report("consumer cudaSetDevice", cudaSetDevice(dev));
  cudaIpcMemHandle_t h;
  FILE *f = fopen(file, "rb");
  if (!f || fread(&h, sizeof h, 1, f) != 1) { printf("no handle in %s\n", file); return 1; }
  fclose(f);
  void *p = nullptr, *q = nullptr;
  report("consumer cudaIpcOpenMemHandle(lazy peer access) first", cudaIpcOpenMemHandle(&p, h, cudaIpcMemLazyEnablePeerAccess));
  if (p) {
    unsigned char b = 0;
    report("consumer cudaMemcpy from the opened buffer", cudaMemcpy(&b, p, 1, cudaMemcpyDeviceToHost));
    printf("consumer read byte %d (producer wrote 7)\n", b);
  }
  report("consumer cudaIpcOpenMemHandle(lazy peer access) second", cudaIpcOpenMemHandle(&q, h, cudaIpcMemLazyEnablePeerAccess));
  printf("same address both times: %s\n", p && p == q ? "yes" : "no");
  if (p) report("consumer cudaIpcCloseMemHandle first", cudaIpcCloseMemHandle(p));
  if (q) report("consumer cudaIpcCloseMemHandle second", cudaIpcCloseMemHandle(q));
  report("consumer cudaIpcCloseMemHandle again", cudaIpcCloseMemHandle(p ? p : (void *)0x1000));
  return 0;
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "local")) return local();
  if (argc >= 4 && !strcmp(argv[1], "produce")) return produce(argv[2], argv[3]);
  if (argc >= 4 && !strcmp(argv[1], "consume")) return consume(argv[2], atoi(argv[3]));
  fprintf(stderr, "usage: ipc_errors local | produce FILE DONEFILE | consume FILE DEV\n");
  return 2;
}
