#pragma once
// DimVector: one int64 per dim (a header's sizes or strides, an op's dim
// list), stored inline up to kInlineDims dims and on the heap beyond (ranks
// of 65 and more work the same, only slower). c10's DimVector idea
// (SmallVector<int64_t, 5>): a view op builds its result's sizes and strides
// without touching the allocator, and copying a header of rank <= kInlineDims
// is a fixed six-slot copy.
//
// The interface is std::vector<int64_t>'s (the parts this project uses), so
// engine::Shape stays a drop-in for code written against a vector; it
// converts implicitly from and to std::vector<int64_t> (the program IR and
// the observations keep plain vectors).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace sc::engine {

class DimVector {
 public:
  // The fuzzer's ranks are <= 5; channels_last_3d tensors have 5 dims; a
  // 6-d header still stays inline.
  static constexpr size_t kInlineDims = 6;

  using value_type = int64_t;
  using size_type = size_t;
  using difference_type = std::ptrdiff_t;
  using reference = int64_t&;
  using const_reference = const int64_t&;
  using pointer = int64_t*;
  using const_pointer = const int64_t*;
  using iterator = int64_t*;
  using const_iterator = const int64_t*;
  using reverse_iterator = std::reverse_iterator<iterator>;
  using const_reverse_iterator = std::reverse_iterator<const_iterator>;

  DimVector() noexcept = default;
  // n zeros; up to kInlineDims they are the (zeroed) inline buffer's.
  explicit DimVector(size_t n) {
    if (n <= kInlineDims)
      size_ = static_cast<uint32_t>(n);
    else
      assign(n, 0);
  }
  DimVector(size_t n, int64_t value) { assign(n, value); }
  DimVector(std::initializer_list<int64_t> il) { assign(il.begin(), il.end()); }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  DimVector(It first, It last) {
    assign(first, last);
  }
  /* implicit */ DimVector(const std::vector<int64_t>& v) { assign(v.data(), v.data() + v.size()); }

  DimVector(const DimVector& o) {
    if (o.size_ <= kInlineDims)
      copy_inline(o);
    else
      assign(o.begin(), o.end());
  }
  DimVector(DimVector&& o) noexcept { take(o); }
  DimVector& operator=(const DimVector& o) {
    if (this == &o) return *this;
    if (o.size_ <= kInlineDims) {
      release();
      copy_inline(o);
    } else {
      assign(o.begin(), o.end());
    }
    return *this;
  }
  DimVector& operator=(DimVector&& o) noexcept {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  DimVector& operator=(std::initializer_list<int64_t> il) {
    assign(il.begin(), il.end());
    return *this;
  }
  DimVector& operator=(const std::vector<int64_t>& v) {
    assign(v.data(), v.data() + v.size());
    return *this;
  }
  ~DimVector() {
    if (!is_inline()) std::free(data_);
  }

  /* implicit */ operator std::vector<int64_t>() const { return vec(); }
  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }

  // ---- access
  size_t size() const noexcept { return size_; }
  bool empty() const noexcept { return size_ == 0; }
  size_t capacity() const noexcept { return cap_; }
  static constexpr size_t max_size() noexcept { return size_t{1} << 31; }
  int64_t* data() noexcept { return data_; }
  const int64_t* data() const noexcept { return data_; }
  int64_t& operator[](size_t i) noexcept { return data_[i]; }
  const int64_t& operator[](size_t i) const noexcept { return data_[i]; }
  int64_t& at(size_t i) {
    check_index(i);
    return data_[i];
  }
  const int64_t& at(size_t i) const {
    check_index(i);
    return data_[i];
  }
  int64_t& front() noexcept { return data_[0]; }
  const int64_t& front() const noexcept { return data_[0]; }
  int64_t& back() noexcept { return data_[size_ - 1]; }
  const int64_t& back() const noexcept { return data_[size_ - 1]; }

  iterator begin() noexcept { return data_; }
  iterator end() noexcept { return data_ + size_; }
  const_iterator begin() const noexcept { return data_; }
  const_iterator end() const noexcept { return data_ + size_; }
  const_iterator cbegin() const noexcept { return data_; }
  const_iterator cend() const noexcept { return data_ + size_; }
  reverse_iterator rbegin() noexcept { return reverse_iterator(end()); }
  reverse_iterator rend() noexcept { return reverse_iterator(begin()); }
  const_reverse_iterator rbegin() const noexcept { return const_reverse_iterator(end()); }
  const_reverse_iterator rend() const noexcept { return const_reverse_iterator(begin()); }

  // ---- modifiers
  void reserve(size_t n) {
    if (n > cap_) grow_to(n);
  }
  void clear() noexcept { size_ = 0; }
  void resize(size_t n) { resize(n, 0); }
  void resize(size_t n, int64_t value) {
    reserve(n);
    if (n > size_) std::fill(data_ + size_, data_ + n, value);
    size_ = static_cast<uint32_t>(n);
  }
  void assign(size_t n, int64_t value) {
    clear();
    resize(n, value);
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  void assign(It first, It last) {
    if constexpr (std::is_base_of_v<std::forward_iterator_tag,
                                    typename std::iterator_traits<It>::iterator_category>) {
      const size_t n = static_cast<size_t>(std::distance(first, last));
      clear();
      reserve(n);
      std::copy(first, last, data_);
      size_ = static_cast<uint32_t>(n);
    } else {
      clear();
      for (; first != last; ++first) push_back(*first);
    }
  }
  void assign(std::initializer_list<int64_t> il) { assign(il.begin(), il.end()); }
  void push_back(int64_t v) {
    if (size_ == cap_) grow_to(size_ + 1);
    data_[size_++] = v;
  }
  int64_t& emplace_back(int64_t v) {
    push_back(v);
    return back();
  }
  void pop_back() noexcept { --size_; }
  iterator insert(const_iterator pos, int64_t v) { return insert(pos, size_t{1}, v); }
  iterator insert(const_iterator pos, size_t n, int64_t v) {
    const size_t at = make_room(pos, n);
    std::fill(data_ + at, data_ + at + n, v);
    return data_ + at;
  }
  template <class It, class = std::enable_if_t<!std::is_integral_v<It>>>
  iterator insert(const_iterator pos, It first, It last) {
    // A copy first: [first, last) may point into this vector.
    const DimVector tmp(first, last);
    const size_t at = make_room(pos, tmp.size());
    std::copy(tmp.begin(), tmp.end(), data_ + at);
    return data_ + at;
  }
  iterator insert(const_iterator pos, std::initializer_list<int64_t> il) { return insert(pos, il.begin(), il.end()); }
  iterator erase(const_iterator pos) { return erase(pos, pos + 1); }
  iterator erase(const_iterator first, const_iterator last) {
    const size_t a = static_cast<size_t>(first - data_), b = static_cast<size_t>(last - data_);
    std::copy(data_ + b, data_ + size_, data_ + a);
    size_ = static_cast<uint32_t>(size_ - (b - a));
    return data_ + a;
  }
  void swap(DimVector& o) noexcept {
    DimVector t(std::move(o));
    o = std::move(*this);
    *this = std::move(t);
  }

  friend bool operator==(const DimVector& a, const DimVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }
  friend bool operator!=(const DimVector& a, const DimVector& b) { return !(a == b); }
  friend bool operator<(const DimVector& a, const DimVector& b) {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
  }
  friend bool operator>(const DimVector& a, const DimVector& b) { return b < a; }
  friend bool operator<=(const DimVector& a, const DimVector& b) { return !(b < a); }
  friend bool operator>=(const DimVector& a, const DimVector& b) { return !(a < b); }
  friend void swap(DimVector& a, DimVector& b) noexcept { a.swap(b); }

 private:
  bool is_inline() const noexcept { return data_ == inline_; }
  void release() noexcept {
    if (!is_inline()) std::free(data_);
    data_ = inline_;
    size_ = 0;
    cap_ = kInlineDims;
  }
  // o's dims into this (inline, o.size_ <= kInlineDims): a fixed-size copy of
  // the whole inline buffer (no call, no loop). Slots past o.size_ are in
  // bounds: o's inline buffer is always initialised, and a heap buffer of o
  // has >= kInlineDims + 1 slots.
  // One 8-byte move per slot, never wider: a view op writes its dims one by
  // one and then moves them on (into the result header), and a 16-byte load
  // of two 8-byte stores still in flight cannot be forwarded from them: it
  // waits for both to reach the cache (about 12 cycles per load here, measured:
  // 4.2 ns per 48-byte vector copy vs 1.8 ns element by element). The empty
  // asm keeps the compiler from merging the moves into vector ones.
  void copy_inline(const DimVector& o) noexcept {
    const int64_t* from = o.data_;
    for (size_t i = 0; i < kInlineDims; ++i) {
      int64_t v = from[i];
      asm("" : "+r"(v));
      inline_[i] = v;
    }
    size_ = o.size_;
  }
  // Steals o's heap buffer, or copies its inline dims; o is left empty.
  void take(DimVector& o) noexcept {
    if (o.is_inline()) {
      copy_inline(o);
    } else {
      data_ = o.data_;
      size_ = o.size_;
      cap_ = o.cap_;
      o.data_ = o.inline_;
      o.cap_ = kInlineDims;
    }
    o.size_ = 0;
  }
  void grow_to(size_t n) {
    if (n > max_size()) throw std::length_error("DimVector: too many dims");
    const size_t cap = std::max(n, 2 * static_cast<size_t>(cap_));
    auto* p = static_cast<int64_t*>(std::malloc(cap * sizeof(int64_t)));
    if (p == nullptr) throw std::bad_alloc();
    if (size_ > 0) std::memcpy(p, data_, size_ * sizeof(int64_t));
    if (!is_inline()) std::free(data_);
    data_ = p;
    cap_ = static_cast<uint32_t>(cap);
  }
  // Opens n slots at pos (moving the tail up); returns pos's index.
  size_t make_room(const_iterator pos, size_t n) {
    const size_t at = static_cast<size_t>(pos - data_);
    reserve(size_ + n);
    std::copy_backward(data_ + at, data_ + size_, data_ + size_ + n);
    size_ = static_cast<uint32_t>(size_ + n);
    return at;
  }
  void check_index(size_t i) const {
    if (i >= size_) throw std::out_of_range("DimVector::at");
  }

  int64_t* data_ = inline_;
  uint32_t size_ = 0;
  uint32_t cap_ = kInlineDims;
  int64_t inline_[kInlineDims] = {};  // zeroed: copy_inline copies all of it
};

}  // namespace sc::engine
