// simplep2p_corrected.cu: the corrected example of the article "Why is CUDA
// simpleP2P failing?". It enables peer access in each direction between
// GPU 0 and GPU 1 with the right device current, allocates one buffer on
// each GPU, copies GPU 0 -> GPU 1 and checks every byte.
//
// Not yet compiled or run. Build: nvcc -o simplep2p_corrected simplep2p_corrected.cu
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                   \
  do {                                                                                \
    cudaError_t e_ = (call);                                                          \
    if (e_ != cudaSuccess) {                                                          \
      fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorName(e_), cudaGetErrorString(e_));                          \
      exit(1);                                                                        \
    }                                                                                 \
  } while (0)

int main() {
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  if (n < 2) {
    printf("needs two GPUs, found %d\n", n);
    return 2;
  }
  const int dev0 = 0, dev1 = 1;
  int can01 = 0, can10 = 0;
  CHECK(cudaDeviceCanAccessPeer(&can01, dev0, dev1));
  CHECK(cudaDeviceCanAccessPeer(&can10, dev1, dev0));
  printf("peer access %d->%d: %s, %d->%d: %s\n", dev0, dev1, can01 ? "yes" : "no", dev1, dev0,
         can10 ? "yes" : "no");

  // cudaDeviceEnablePeerAccess(peer, 0) lets the *current* device access
  // peer's memory: make each device current in turn and name the other one.
  // Naming the current device itself fails (a device is not its own peer).
  if (can01) {
    CHECK(cudaSetDevice(dev0));
    CHECK(cudaDeviceEnablePeerAccess(dev1, 0));
  }
  if (can10) {
    CHECK(cudaSetDevice(dev1));
    CHECK(cudaDeviceEnablePeerAccess(dev0, 0));
  }

  // cudaMalloc allocates on the current device: one buffer on each GPU.
  const size_t size = 1 << 20;
  unsigned char *buf0 = nullptr, *buf1 = nullptr;
  CHECK(cudaSetDevice(dev0));
  CHECK(cudaMalloc(&buf0, size));
  CHECK(cudaMemset(buf0, 0x5a, size));
  CHECK(cudaSetDevice(dev1));
  CHECK(cudaMalloc(&buf1, size));
  CHECK(cudaMemset(buf1, 0, size));

  // cudaMemcpyPeer(dst, dstDevice, src, srcDevice, count): GPU 0 -> GPU 1.
  // Without peer access CUDA copies through host memory; it still works.
  CHECK(cudaMemcpyPeer(buf1, dev1, buf0, dev0, size));
  CHECK(cudaDeviceSynchronize());

  std::vector<unsigned char> host(size);
  CHECK(cudaMemcpy(host.data(), buf1, size, cudaMemcpyDeviceToHost));
  size_t bad = 0;
  for (unsigned char b : host) bad += b != 0x5a;
  printf("copied %zu bytes GPU %d -> GPU %d: %zu wrong\n", size, dev0, dev1, bad);

  CHECK(cudaFree(buf1));
  CHECK(cudaSetDevice(dev0));
  CHECK(cudaFree(buf0));
  return bad ? 1 : 0;
}
