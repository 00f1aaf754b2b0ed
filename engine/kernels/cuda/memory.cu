// Device memory of CUDA storages, transfers, and the registration of the CUDA
// kernels with the engine. Everything runs on the legacy default stream, so
// a transfer to the host waits for every kernel before it (the Observation
// reads storages back after each step).
#include <map>
#include <mutex>
#include <unordered_map>

#include "engine/kernels/cuda/check.h"
#include "engine/kernels/cuda/kernels.h"
#include "engine/kernels/kernels.h"

namespace sc::engine::cuda {

int device_count(std::string* why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    if (why) *why = std::string("cudaGetDeviceCount: ") + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
    cudaGetLastError();  // clear the sticky-free error so later calls are not blamed for it
    return 0;
  }
  if (n == 0 && why) *why = "cudaGetDeviceCount found no CUDA device";
  return n;
}

// A caching allocator, as LibTorch's CUDACachingAllocator in spirit:
// cudaMalloc and cudaFree synchronise the device and cost far more than the
// kernels of a small program, so freed blocks are kept by size and handed out
// again. Block sizes are rounded up to 512 bytes (small) or 2 MiB (large) so
// nearby sizes share blocks. Kernels run in order on one stream, so a block
// freed by the host may be reused at once: later kernels run after earlier ones.
namespace {
struct BlockCache {
  std::mutex mu;
  std::multimap<size_t, void*> free_blocks;      // size -> block
  std::unordered_map<void*, size_t> block_size;  // every live or cached block
};
BlockCache& cache() {
  static BlockCache* c = new BlockCache;  // never destroyed: storages may outlive static destruction
  return *c;
}
size_t rounded_block(int64_t nbytes) {
  const size_t n = static_cast<size_t>(nbytes);
  const size_t unit = n <= (size_t{1} << 20) ? 512 : (size_t{2} << 20);
  return (n + unit - 1) / unit * unit;
}
}  // namespace

std::byte* allocate(int64_t nbytes) {
  const size_t size = rounded_block(nbytes);
  void* p = nullptr;
  {
    BlockCache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    auto it = c.free_blocks.find(size);
    if (it != c.free_blocks.end()) {
      p = it->second;
      c.free_blocks.erase(it);
    }
  }
  if (!p) {
    cudaError_t e = cudaMalloc(&p, size);
    if (e == cudaErrorMemoryAllocation) {  // give the cached blocks back, then try once more
      cudaGetLastError();
      empty_cache();
      e = cudaMalloc(&p, size);
    }
    check(e, "cudaMalloc");
    BlockCache& c = cache();
    std::lock_guard<std::mutex> lock(c.mu);
    c.block_size[p] = size;
  }
  return static_cast<std::byte*>(p);
}

std::byte* allocate_zeroed(int64_t nbytes) {
  std::byte* p = allocate(nbytes);
  check(cudaMemsetAsync(p, 0, static_cast<size_t>(nbytes)), "cudaMemsetAsync");
  return p;
}

void free(std::byte* p) {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  auto it = c.block_size.find(p);
  if (it == c.block_size.end()) return;
  c.free_blocks.emplace(it->second, p);
}

void empty_cache() {
  BlockCache& c = cache();
  std::lock_guard<std::mutex> lock(c.mu);
  for (auto& [size, p] : c.free_blocks) {
    cudaFree(p);
    c.block_size.erase(p);
  }
  c.free_blocks.clear();
}

void to_host(std::byte* host, const std::byte* device, int64_t nbytes) {
  check(cudaMemcpy(host, device, static_cast<size_t>(nbytes), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}

void from_host(std::byte* device, const std::byte* host, int64_t nbytes) {
  check(cudaMemcpy(device, host, static_cast<size_t>(nbytes), cudaMemcpyHostToDevice), "cudaMemcpy from host");
}

void device_to_device(std::byte* dst, const std::byte* src, int64_t nbytes) {
  check(cudaMemcpyAsync(dst, src, static_cast<size_t>(nbytes), cudaMemcpyDeviceToDevice), "cudaMemcpyAsync");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

namespace {
const DeviceKernels kTable{
    "cuda",     &device_count, &allocate_zeroed, &allocate, &free, &to_host, &from_host, &device_to_device,
    &cuda::copy, &cuda::fill,  &cuda::binary,    &cuda::neg, &cuda::clamp,
};
}  // namespace

void install() { register_cuda_kernels(&kTable); }

}  // namespace sc::engine::cuda
