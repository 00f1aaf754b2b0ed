// The CUDA kernels against the CPU kernels, byte for byte, on a GPU: every
// dtype pair of copy over transposed, permuted (NCHW <-> channels_last),
// flipped, sliced and broadcast layouts; fill over expanded views; add, sub,
// mul, div, neg and clamp per dtype, strided, broadcast and with a CPU scalar;
// byte offsets past 2^31 (64-bit indexing).
//
// A plain program, not GoogleTest (the GPU machine may lack it): prints each
// failure, exits 0 when all pass, 1 on a failure, 77 (ctest's skip) where
// there is no GPU, saying why.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engine/creation.h"
#include "engine/kernels/cuda/kernels.h"
#include "engine/kernels/kernels.h"
#include "engine/scalar.h"
#include "engine/tensor.h"

namespace sc::engine {
namespace {

int failures = 0, checks = 0;

void expect(bool ok, const std::string& what) {
  ++checks;
  if (!ok) {
    ++failures;
    if (failures <= 40) std::printf("FAIL: %s\n", what.c_str());
  }
}

constexpr DType kAll[] = {DType::Bool,    DType::UInt8,    DType::Int8,    DType::Int16,   DType::Int32,
                          DType::Int64,   DType::Float16,  DType::BFloat16, DType::Float32, DType::Float64};

std::vector<std::byte> bytes_of(const Storage& s) {
  std::vector<std::byte> b(static_cast<size_t>(s.nbytes()));
  s.read(0, s.nbytes(), b.data());
  return b;
}

// A CPU tensor and its twin on the GPU: same header, same bytes.
struct Pair {
  Tensor cpu, gpu;
};

Pair twin(const Tensor& host) { return {host, moved_to(host, Device::CUDA)}; }

// Storage of `n` elements of `d` holding random small values (floats get halves, and infinities when `specials`: NaN payloads are not compared here).
Pair random_storage(int64_t n, DType d, std::mt19937& rng, bool specials = false) {
  Tensor t = empty({n}, d);
  const int64_t item = itemsize(d);
  for (int64_t k = 0; k < n; ++k) {
    std::byte* p = t.storage->data() + k * item;
    const int64_t v = static_cast<int64_t>(rng() % 201) - 100;
    if (d == DType::Bool) store_int(d, p, v & 1);
    else if (d == DType::UInt8) store_int(d, p, v + 100);
    else if (!is_floating(d)) store_int(d, p, v);
    else if (specials && rng() % 10 == 0) store_double(d, p, rng() % 2 ? INFINITY : -INFINITY);
    else store_double(d, p, static_cast<double>(v) / 2);
  }
  return twin(t);
}

Tensor with_layout(const Tensor& base, const Shape& sizes, const Shape& strides, int64_t offset) {
  return make_view(base, sizes, strides, offset);
}

struct Layout {
  const char* name;
  Shape sizes, strides;
  int64_t offset;
  int64_t storage_elems;
};

// Source layouts over one storage; destinations are fresh contiguous or channels_last tensors.
std::vector<Layout> layouts() {
  return {
      {"contiguous", {6, 35}, {35, 1}, 0, 210},
      {"transposed", {35, 40}, {1, 35}, 0, 1400},
      {"nchw", {2, 37, 9, 11}, {3663, 99, 11, 1}, 0, 7326},
      {"channels_last", {2, 37, 9, 11}, {3663, 1, 407, 37}, 0, 7326},
      {"flipped", {5, 7}, {-7, -1}, 34, 35},
      {"sliced", {4, 6}, {20, 3}, 5, 80},
      {"broadcast", {9, 13}, {0, 1}, 0, 13},
      {"scalar", {3, 4}, {0, 0}, 2, 3},
      {"batched_transpose", {3, 33, 70}, {2310, 1, 33}, 0, 6930},
  };
}

Shape contiguous_of(const Shape& s) {
  Shape st(s.size());
  int64_t m = 1;
  for (size_t i = s.size(); i-- > 0;) {
    st[i] = m;
    m *= s[i];
  }
  return st;
}

Shape channels_last_of(const Shape& s) {
  if (s.size() != 4) return contiguous_of(s);
  return {s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
}

// Byte for byte, except that two NaNs are equal: x86 and the GPU give
// arithmetic NaNs different payloads (0/0 is 0xffc00000 on x86, 0x7fffffff on
// the GPU), which the diff also treats as equal.
void compare_storages(const Tensor& cpu, const Tensor& gpu, const std::string& what) {
  const std::vector<std::byte> a = bytes_of(*cpu.storage), b = bytes_of(*gpu.storage);
  if (a == b || !is_floating(cpu.dtype) || a.size() != b.size()) return expect(a == b, what);
  const int64_t item = itemsize(cpu.dtype);
  for (size_t k = 0; k + item <= a.size(); k += item) {
    if (std::memcmp(a.data() + k, b.data() + k, item) == 0) continue;
    const double x = load_double(cpu.dtype, a.data() + k), y = load_double(cpu.dtype, b.data() + k);
    if (std::isnan(x) && std::isnan(y)) continue;
    return expect(false, what + " at byte " + std::to_string(k) + ": cpu " + std::to_string(x) + ", cuda " +
                             std::to_string(y));
  }
  expect(true, what);
}

void copy_every_pair(std::mt19937& rng) {
  for (const Layout& l : layouts()) {
    for (DType s : kAll) {
      for (DType d : kAll) {
        // NaN and out-of-range floats convert to integers differently on the
        // GPU (Note [float to integer on CUDA]): specials only between floating dtypes.
        const bool specials = is_floating(s) && is_floating(d);
        Pair src = random_storage(l.storage_elems, s, rng, specials);
        for (bool cl : {false, true}) {
          const Shape dst_strides = cl ? channels_last_of(l.sizes) : contiguous_of(l.sizes);
          Tensor sc = with_layout(src.cpu, l.sizes, l.strides, l.offset);
          Tensor sg = with_layout(src.gpu, l.sizes, l.strides, l.offset);
          Tensor dc = empty_strided(l.sizes, dst_strides, d), dg = empty_strided(l.sizes, dst_strides, d, Device::CUDA);
          kernels::copy(dc, sc);
          kernels::copy(dg, sg);
          compare_storages(dc, dg, std::string("copy ") + l.name + (cl ? " -> channels_last " : " ") +
                                       std::string(dtype_name(s)) + " -> " + std::string(dtype_name(d)));
        }
      }
    }
  }
}

void fill_every_dtype() {
  for (DType d : kAll) {
    for (const Scalar& v : {Scalar::integer(-3), Scalar::floating(2.5), Scalar::boolean(true)}) {
      Pair t = twin(empty({40}, d));
      Tensor vc = with_layout(t.cpu, {3, 5, 4}, {0, 8, 2}, 1), vg = with_layout(t.gpu, {3, 5, 4}, {0, 8, 2}, 1);
      kernels::fill(vc, v);
      kernels::fill(vg, v);
      compare_storages(t.cpu, t.gpu, "fill " + std::string(dtype_name(d)));
    }
  }
}

void arithmetic_every_dtype(std::mt19937& rng) {
  const BinaryOp ops[] = {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div};
  for (DType d : kAll) {
    for (BinaryOp op : ops) {
      if (op == BinaryOp::Div && !is_floating(d)) continue;
      if (op == BinaryOp::Sub && d == DType::Bool) continue;
      for (const Layout& l : layouts()) {
        Pair a = random_storage(l.storage_elems, d, rng, is_floating(d));
        Pair b = random_storage(l.storage_elems, d, rng, is_floating(d));
        Tensor ac = with_layout(a.cpu, l.sizes, l.strides, l.offset), ag = with_layout(a.gpu, l.sizes, l.strides, l.offset);
        // b contiguous, out channels_last where 4-d: three different layouts at once.
        Tensor bc = with_layout(b.cpu, l.sizes, contiguous_of(l.sizes), 0);
        Tensor bg = with_layout(b.gpu, l.sizes, contiguous_of(l.sizes), 0);
        if (bc.numel() > l.storage_elems) continue;
        Tensor oc = empty_strided(l.sizes, channels_last_of(l.sizes), d);
        Tensor og = empty_strided(l.sizes, channels_last_of(l.sizes), d, Device::CUDA);
        kernels::binary(op, oc, ac, bc);
        kernels::binary(op, og, ag, bg);
        compare_storages(oc, og, "binary " + std::to_string(static_cast<int>(op)) + " " + l.name + " " +
                                     std::string(dtype_name(d)));
      }
      // A CPU scalar operand (a wrapped number) broadcast over a contiguous tensor.
      Pair a = random_storage(64, d, rng);
      const bool reduced = d == DType::Float16 || d == DType::BFloat16;
      const double sv = (op == BinaryOp::Div && !reduced) ? 3.0 : 2.0;
      Tensor s_same = full({}, d == DType::Bool ? Scalar::boolean(true) : Scalar::floating(sv), d);
      Tensor s_gpu = reduced ? full({}, Scalar::floating(sv), DType::Float32) : s_same;
      Tensor oc = empty({64}, d), og = empty({64}, d, Device::CUDA);
      if (op == BinaryOp::Div) {
        // div_true_kernel_cuda multiplies by the reciprocal of a CPU scalar.
        kernels::binary(BinaryOp::Mul, oc, a.cpu, with_layout(full({}, Scalar::floating(1.0 / sv), d), {64}, {0}, 0));
      } else {
        kernels::binary(op, oc, a.cpu, with_layout(s_same, {64}, {0}, 0));
      }
      kernels::binary(op, og, a.gpu, with_layout(s_gpu, {64}, {0}, 0));
      compare_storages(oc, og, "binary with a CPU scalar " + std::to_string(static_cast<int>(op)) + " " +
                                   std::string(dtype_name(d)));
    }
    if (d != DType::Bool) {
      Pair a = random_storage(210, d, rng, is_floating(d));
      Tensor ac = with_layout(a.cpu, {35, 6}, {1, 35}, 0), ag = with_layout(a.gpu, {35, 6}, {1, 35}, 0);
      Tensor oc = empty({35, 6}, d), og = empty({35, 6}, d, Device::CUDA);
      kernels::neg(oc, ac);
      kernels::neg(og, ag);
      compare_storages(oc, og, "neg " + std::string(dtype_name(d)));
      kernels::clamp(oc, ac, Scalar::integer(-20), Scalar::integer(30));
      kernels::clamp(og, ag, Scalar::integer(-20), Scalar::integer(30));
      compare_storages(oc, og, "clamp " + std::string(dtype_name(d)));
      kernels::clamp(oc, ac, std::nullopt, Scalar::integer(7));
      kernels::clamp(og, ag, std::nullopt, Scalar::integer(7));
      compare_storages(oc, og, "clamp max only " + std::string(dtype_name(d)));
    }
  }
}

// Offsets past 2^31 bytes: a 2 GiB + 4 KiB uint8 storage, its last 4096 bytes
// copied reversed through a view that starts beyond 2^31, and a strided
// int8 -> int16 conversion whose source spans the whole storage.
void sixty_four_bit_offsets() {
  const int64_t n = (int64_t{1} << 31) + 4096;
  Tensor big = empty({n}, DType::UInt8, Device::CUDA);
  std::vector<std::byte> tail(4096);
  for (int k = 0; k < 4096; ++k) tail[k] = static_cast<std::byte>(k * 7);
  big.storage->write(n - 4096, 4096, tail.data());
  Tensor rev = make_view(big, {4096}, {-1}, n - 1);
  Tensor out = empty({4096}, DType::UInt8, Device::CUDA);
  kernels::copy(out, rev);
  std::vector<std::byte> got = bytes_of(*out.storage);
  bool ok = true;
  for (int k = 0; k < 4096; ++k) ok = ok && got[k] == tail[4095 - k];
  expect(ok, "reversed copy from byte offsets past 2^31");
  Tensor spread = make_view(big, {2, 4096}, {n - 4096, 1}, 0);  // rows at 0 and 2^31
  Tensor wide = empty({2, 4096}, DType::Int16, Device::CUDA);
  Tensor spread8 = make_view(big, {2, 4096}, {n - 4096, 1}, 0, DType::Int8);
  kernels::copy(wide, spread8);
  std::vector<std::byte> w = bytes_of(*wide.storage);
  ok = true;
  for (int k = 0; k < 4096; ++k) {
    int16_t v;
    std::memcpy(&v, w.data() + (4096 + k) * 2, 2);
    ok = ok && v == static_cast<int16_t>(static_cast<int8_t>(tail[k]));
  }
  expect(ok, "int8 -> int16 copy whose source spans 2^31 bytes");
  (void)spread;
}

}  // namespace
}  // namespace sc::engine

int main() {
  using namespace sc::engine;
  cuda::install();
  std::string why;
  if (cuda::device_count(&why) == 0) {
    std::printf("SKIP: the CUDA kernel tests need a GPU: %s\n", why.c_str());
    return 77;
  }
  std::mt19937 rng(20261130);
  copy_every_pair(rng);
  fill_every_dtype();
  arithmetic_every_dtype(rng);
  sixty_four_bit_offsets();
  std::printf("%d checks, %d failed\n", checks, failures);
  return failures == 0 ? 0 : 1;
}
