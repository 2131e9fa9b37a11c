// The one helper every clGet*Info entry point answers through: it checks the
// application's buffer size, copies the value out and reports the size, so no
// query repeats those rules.
#pragma once
#include <CL/cl.h>

#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

namespace weft::icd {

class InfoWriter {
public:
  InfoWriter(size_t param_value_size, void *param_value,
             size_t *param_value_size_ret)
      : capacity_(param_value_size), destination_(param_value),
        size_ret_(param_value_size_ret) {}

  cl_int bytes(const void *data, size_t size) {
    if (destination_) {
      if (capacity_ < size)
        return CL_INVALID_VALUE;
      if (size)
        std::memcpy(destination_, data, size);
    }
    if (size_ret_)
      *size_ret_ = size;
    return CL_SUCCESS;
  }
  template <typename T> cl_int value(const T &v) {
    static_assert(std::is_trivially_copyable_v<T>);
    return bytes(&v, sizeof(T));
  }
  cl_int string(const std::string &s) { return bytes(s.c_str(), s.size() + 1); }
  cl_int string(const char *s) { return bytes(s, std::strlen(s) + 1); }
  template <typename T> cl_int array(const std::vector<T> &v) {
    static_assert(std::is_trivially_copyable_v<T>);
    return bytes(v.data(), v.size() * sizeof(T));
  }
  template <typename T> cl_int array(const T *v, size_t count) {
    return bytes(v, count * sizeof(T));
  }

private:
  size_t capacity_;
  void *destination_;
  size_t *size_ret_;
};

} // namespace weft::icd
