// peer_bw: the reference figures p2p-probe --test is checked against, built
// with nvcc on the same machine: copy-engine cudaMemcpyPeerAsync bandwidth
// of every ordered pair with peer access off and on, unidirectional and
// bidirectional, and each GPU's local, host-to-device and device-to-host
// copies, timed with events the way the probe times them (same size, same
// number of copies). Prints one JSON document.
//
//   nvcc -O2 -o peer_bw peer_bw.cu && ./peer_bw 67108864
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
	fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorName(e)); exit(1); } } while (0)

static int reps(size_t n) { long r = (1L << 30) / (long)n; return r < 2 ? 2 : r > 10 ? 10 : (int)r; }

static double uni(int a, int b, void *src, void *dst, size_t n, cudaStream_t s) {
	cudaEvent_t e0, e1;
	CK(cudaSetDevice(a));
	CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
	int k = reps(n);
	CK(cudaMemcpyPeerAsync(dst, b, src, a, n, s)); // warm-up
	CK(cudaEventRecord(e0, s));
	for (int i = 0; i < k; i++) CK(cudaMemcpyPeerAsync(dst, b, src, a, n, s));
	CK(cudaEventRecord(e1, s));
	CK(cudaStreamSynchronize(s));
	float ms; CK(cudaEventElapsedTime(&ms, e0, e1));
	return (double)k * n / (ms * 1e6);
}

static double bidir(int a, int b, void *srcA, void *dstB, void *srcB, void *dstA, size_t n, cudaStream_t sa, cudaStream_t sb) {
	cudaEvent_t start, stopB, stop;
	int k = reps(n);
	CK(cudaSetDevice(a)); CK(cudaEventCreate(&start)); CK(cudaEventCreate(&stop));
	CK(cudaSetDevice(b)); CK(cudaEventCreate(&stopB));
	CK(cudaSetDevice(a)); CK(cudaEventRecord(start, sa));
	CK(cudaSetDevice(b)); CK(cudaStreamWaitEvent(sb, start, 0));
	for (int i = 0; i < k; i++) CK(cudaMemcpyPeerAsync(dstA, a, srcB, b, n, sb));
	CK(cudaEventRecord(stopB, sb));
	CK(cudaSetDevice(a));
	for (int i = 0; i < k; i++) CK(cudaMemcpyPeerAsync(dstB, b, srcA, a, n, sa));
	CK(cudaStreamWaitEvent(sa, stopB, 0));
	CK(cudaEventRecord(stop, sa));
	CK(cudaStreamSynchronize(sa));
	float ms; CK(cudaEventElapsedTime(&ms, start, stop));
	return 2.0 * k * n / (ms * 1e6);
}

int main(int argc, char **argv) {
	size_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 64 << 20;
	int count; CK(cudaGetDeviceCount(&count));
	void *buf[16][2]; cudaStream_t st[16];
	for (int d = 0; d < count; d++) {
		CK(cudaSetDevice(d));
		CK(cudaMalloc(&buf[d][0], n)); CK(cudaMalloc(&buf[d][1], n));
		CK(cudaMemset(buf[d][0], 1, n));
		CK(cudaStreamCreateWithFlags(&st[d], cudaStreamNonBlocking));
	}
	printf("{\"size\": %zu, \"devices\": [", n);
	void *host; CK(cudaHostAlloc(&host, n, cudaHostAllocPortable));
	memset(host, 1, n); // touch every page first, as the probe does when it writes its pattern
	for (int d = 0; d < count; d++) {
		CK(cudaSetDevice(d));
		cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
		int k = reps(n); float ms; double g[3];
		for (int t = 0; t < 3; t++) {
			for (int i = -1; i < k; i++) { // i = -1: one warm-up copy before the clock starts
				if (i == 0) CK(cudaEventRecord(e0, st[d]));
				if (t == 0) CK(cudaMemcpyAsync(buf[d][0], host, n, cudaMemcpyHostToDevice, st[d]));
				if (t == 1) CK(cudaMemcpyAsync(buf[d][1], buf[d][0], n, cudaMemcpyDeviceToDevice, st[d]));
				if (t == 2) CK(cudaMemcpyAsync(host, buf[d][1], n, cudaMemcpyDeviceToHost, st[d]));
			}
			CK(cudaEventRecord(e1, st[d])); CK(cudaStreamSynchronize(st[d]));
			CK(cudaEventElapsedTime(&ms, e0, e1)); g[t] = (double)k * n / (ms * 1e6);
		}
		printf("%s{\"ordinal\": %d, \"h2d_gbps\": %.1f, \"local_gbps\": %.1f, \"d2h_gbps\": %.1f}", d ? ", " : "", d, g[0], g[1], g[2]);
	}
	printf("], \"pairs\": [");
	int first = 1;
	for (int a = 0; a < count; a++) for (int b = 0; b < count; b++) {
		if (a == b) continue;
		int can; CK(cudaDeviceCanAccessPeer(&can, a, b));
		double off = uni(a, b, buf[a][0], buf[b][1], n, st[a]);
		double boff = bidir(a, b, buf[a][0], buf[b][1], buf[b][0], buf[a][1], n, st[a], st[b]);
		double on = 0, bon = 0;
		if (can) {
			CK(cudaSetDevice(a)); CK(cudaDeviceEnablePeerAccess(b, 0));
			CK(cudaSetDevice(b)); CK(cudaDeviceEnablePeerAccess(a, 0));
			on = uni(a, b, buf[a][0], buf[b][1], n, st[a]);
			bon = bidir(a, b, buf[a][0], buf[b][1], buf[b][0], buf[a][1], n, st[a], st[b]);
			CK(cudaSetDevice(a)); CK(cudaDeviceDisablePeerAccess(b));
			CK(cudaSetDevice(b)); CK(cudaDeviceDisablePeerAccess(a));
		}
		printf("%s{\"from\": %d, \"to\": %d, \"can_access_peer\": %s, \"p2p_off\": %.1f, \"bidir_p2p_off\": %.1f, \"p2p_on\": %.1f, \"bidir_p2p_on\": %.1f}",
			first ? "" : ", ", a, b, can ? "true" : "false", off, boff, on, bon);
		first = 0;
	}
	printf("]}\n");
	return 0;
}
