#pragma once
// Writing from a fatal-signal handler: write(2) only, no allocation, so
// async-signal-safe. The crash trail (Note [The crash trail], stderr) and the
// crash note (Note [A report that survives a crash], stdout) write with these.
#include <unistd.h>

#include <cstddef>
#include <string>

namespace sc::signal_write {

// Writes [p, p + n) to fd, retrying short writes; gives up on an error.
inline void all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w <= 0) return;
    p += w;
    n -= static_cast<size_t>(w);
  }
}

// Writes text (already allocated before the signal), then a newline unless it ends with one.
inline void text(int fd, const std::string& t) {
  all(fd, t.data(), t.size());
  if (t.empty() || t.back() != '\n') all(fd, "\n", 1);
}

// A line of at most N bytes built in place: text and a decimal number.
template <size_t N>
class Line {
 public:
  Line& put(const char* s) {
    for (; *s && n_ < N; ++s) buf_[n_++] = *s;
    return *this;
  }
  Line& put_decimal(int v) {
    char digits[12];
    int d = 0;
    for (; d == 0 || v > 0; v /= 10) digits[d++] = static_cast<char>('0' + v % 10);
    while (d > 0 && n_ < N) buf_[n_++] = digits[--d];
    return *this;
  }
  void write_to(int fd) const { all(fd, buf_, n_); }

 private:
  char buf_[N];
  size_t n_ = 0;
};

}  // namespace sc::signal_write
