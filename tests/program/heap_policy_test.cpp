// program/heap_policy.cpp (Note [The harness keeps its heap]): after
// keep_heap_between_programs, the pages of a freed 24 MiB block serve the next
// block of that size without faulting in again (6,144 faults of 4 KiB pages
// with glibc's default policy, which maps such a block afresh each time).
#include "program/heap_policy.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>  // defines __GLIBC__ on glibc

namespace sc {
namespace {

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SC_HEAP_TEST_ASAN 1
#endif
#endif

long minor_faults() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

// A program's storage: allocated, written page by page, freed.
void allocate_write_free(size_t n) {
  auto* p = static_cast<volatile char*>(std::malloc(n));
  ASSERT_NE(p, nullptr);
  for (size_t i = 0; i < n; i += 4096) p[i] = 1;
  std::free(const_cast<char*>(p));
}

TEST(HeapPolicy, FreedBlockPagesServeTheNextBlock) {
#if !defined(__GLIBC__) || defined(__SANITIZE_ADDRESS__) || defined(SC_HEAP_TEST_ASAN)
  GTEST_SKIP() << "glibc's malloc only";
#endif
  keep_heap_between_programs();
  constexpr size_t kBlock = size_t{24} << 20;
  static_assert(kBlock < static_cast<size_t>(kHeapBlockBytes));
  allocate_write_free(kBlock);  // the first program faults its pages in
  const long before = minor_faults();
  allocate_write_free(kBlock);
  allocate_write_free(kBlock);
  EXPECT_LT(minor_faults() - before, 256);  // 12,288 pages written
}

}  // namespace
}  // namespace sc
