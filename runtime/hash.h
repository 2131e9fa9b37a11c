// A fast non-cryptographic 128-bit hash (two independent FNV-1a lanes). It
// names cache files and checks binaries for accidental corruption; anything
// that matters is compared in full after the hash matches.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>

namespace weft {

class Hash128 {
public:
  void add(const void *data, size_t size) {
    auto *bytes = static_cast<const unsigned char *>(data);
    for (size_t i = 0; i < size; ++i) {
      low_ = (low_ ^ bytes[i]) * kPrime;
      high_ = (high_ ^ bytes[i] ^ 0x5a) * kPrime;
    }
  }
  void add(const std::string &text) {
    uint64_t size = text.size();
    add(&size, sizeof(size)); // keeps "ab"+"c" apart from "a"+"bc"
    add(text.data(), text.size());
  }
  uint64_t low() const { return low_; }
  uint64_t high() const { return high_; }
  std::string hex() const {
    char text[33];
    std::snprintf(text, sizeof(text), "%016llx%016llx",
                  static_cast<unsigned long long>(high_),
                  static_cast<unsigned long long>(low_));
    return text;
  }

private:
  static constexpr uint64_t kPrime = 0x100000001b3ULL;
  uint64_t low_ = 0xcbf29ce484222325ULL;
  uint64_t high_ = 0x84222325cbf29ce4ULL;
};

} // namespace weft
