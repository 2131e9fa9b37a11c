// size_t arithmetic that remembers overflow, for range checks on sizes,
// offsets and pitches the application passes: a check computed with it can
// never pass because a product or a sum wrapped around.
#pragma once
#include <cstddef>

namespace weft {

class CheckedSize {
public:
  constexpr CheckedSize(size_t value = 0) : value_(value) {}

  // False once any step wrapped (or went below zero).
  bool valid() const { return !overflowed_; }
  // Meaningful only when valid().
  size_t value() const { return value_; }

  friend CheckedSize operator+(CheckedSize a, CheckedSize b) {
    CheckedSize sum;
    sum.overflowed_ = a.overflowed_ || b.overflowed_ ||
                      __builtin_add_overflow(a.value_, b.value_, &sum.value_);
    return sum;
  }
  friend CheckedSize operator-(CheckedSize a, CheckedSize b) {
    CheckedSize difference;
    difference.overflowed_ =
        a.overflowed_ || b.overflowed_ ||
        __builtin_sub_overflow(a.value_, b.value_, &difference.value_);
    return difference;
  }
  friend CheckedSize operator*(CheckedSize a, CheckedSize b) {
    CheckedSize product;
    product.overflowed_ =
        a.overflowed_ || b.overflowed_ ||
        __builtin_mul_overflow(a.value_, b.value_, &product.value_);
    return product;
  }

  // Whether the value is valid and at most `limit`.
  bool fitsIn(size_t limit) const { return valid() && value_ <= limit; }

private:
  size_t value_ = 0;
  bool overflowed_ = false;
};

} // namespace weft
