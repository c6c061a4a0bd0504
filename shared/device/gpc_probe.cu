// Dev: how many thread-block clusters fit on this GPU at once (GPC packing), per cluster size and
// CTAs per SM. cudaOccupancyMaxActiveClusters of a dummy kernel whose dynamic shared memory limits it
// to s CTAs per SM; then a timed launch of `rows` clusters of (C, 512 threads) that each spin ~20 us,
// to see whether the last clusters start in a second wave.
// Build and run (device): nvcc -O2 -arch=sm_90a -o /tmp/gpc_probe shared/device/gpc_probe.cu && /tmp/gpc_probe
#include <cstdio>
#include <cuda_runtime.h>

__global__ void spin(unsigned long long* starts, long long ns) {
  extern __shared__ int smem[];
  unsigned long long t0;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  if (threadIdx.x == 0) starts[blockIdx.x] = t0;
  unsigned long long t = t0;
  while (t - t0 < (unsigned long long)ns) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  if (threadIdx.x == 0) smem[0] = (int)t;
}

static int max_clusters(int c, int threads, size_t smem) {
  cudaLaunchConfig_t cfg = {};
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = c; attr.val.clusterDim.y = 1; attr.val.clusterDim.z = 1;
  cfg.gridDim = dim3(c * 64); cfg.blockDim = dim3(threads); cfg.dynamicSmemBytes = smem;
  cfg.attrs = &attr; cfg.numAttrs = 1;
  int n = -1;
  cudaError_t e = cudaOccupancyMaxActiveClusters(&n, spin, &cfg);
  return e == cudaSuccess ? n : -100 - (int)e;
}

int main() {
  cudaFuncSetAttribute(spin, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
  cudaFuncSetAttribute(spin, cudaFuncAttributeMaxDynamicSharedMemorySize, 220 * 1024);
  int sms; cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  printf("SMs %d\n", sms);
  const size_t smem_for[] = {0, 200 * 1024, 100 * 1024, 70 * 1024, 52 * 1024, 42 * 1024};
  for (int s = 1; s <= 5; ++s) {
    printf("CTAs/SM %d (smem %zu KB), max active clusters by size:", s, smem_for[s] / 1024);
    for (int c = 1; c <= 16; ++c) printf(" %d:%d", c, max_clusters(c, 256, smem_for[s]));
    printf("\n");
  }
  // Timed: rows clusters of (C, 512) at s = 2 CTAs/SM, each CTA spinning 20 us: late starters = second wave.
  unsigned long long* d; cudaMalloc(&d, 4096 * sizeof(unsigned long long));
  unsigned long long h[4096];
  const int cases[][3] = {{8, 30, 2}, {8, 31, 2}, {8, 32, 2}, {16, 16, 2}, {16, 32, 4}, {4, 32, 1}, {4, 64, 2}};
  for (auto& cs : cases) {
    int c = cs[0], rows = cs[1], s = cs[2];
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = c; attr.val.clusterDim.y = 1; attr.val.clusterDim.z = 1;
    cfg.gridDim = dim3(c * rows); cfg.blockDim = dim3(s == 4 ? 256 : 512);
    cfg.dynamicSmemBytes = smem_for[s]; cfg.attrs = &attr; cfg.numAttrs = 1;
    cudaError_t e = cudaLaunchKernelEx(&cfg, spin, d, 20000LL);
    cudaDeviceSynchronize();
    if (e != cudaSuccess) { printf("C=%d rows=%d: %s\n", c, rows, cudaGetErrorString(e)); continue; }
    cudaMemcpy(h, d, c * rows * sizeof(unsigned long long), cudaMemcpyDeviceToHost);
    unsigned long long t0 = ~0ULL; for (int i = 0; i < c * rows; ++i) t0 = h[i] < t0 ? h[i] : t0;
    int late = 0; for (int i = 0; i < c * rows; ++i) late += (h[i] - t0) > 10000;
    printf("C=%d rows=%d CTAs/SM %d: CTAs starting > 10 us late: %d of %d\n", c, rows, s, late, c * rows);
  }
  return 0;
}
