// cl_khr_icd 2.0 (loader-managed dispatch) without a loader that has it
// (Debian's ocl-icd does not): the test plays the loader. It opens Weft's
// library itself, gives the platform its dispatch data, finds functions by
// name, and checks that the handles Weft hands out carry the tag in their
// dispatch table's first slot and the data in their second word.
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

int failures = 0;
void check(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAILED: %s\n", what);
    ++failures;
  }
}

constexpr intptr_t kTag = static_cast<intptr_t>(0x4F50454E434C3331);

// The first two words of a handle: its dispatch table, the loader's data.
bool carries(const void *handle, void *data) {
  auto words = static_cast<void *const *>(handle);
  auto table = static_cast<const cl_icd_dispatch *>(words[0]);
  return reinterpret_cast<intptr_t>(table->clGetPlatformIDs) == kTag &&
         reinterpret_cast<intptr_t>(table->clUnloadCompiler) == kTag &&
         words[1] == data;
}

} // namespace

int main() {
  void *library = dlopen(WEFT_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    std::printf("cannot open %s: %s\n", WEFT_LIBRARY, dlerror());
    return 1;
  }
  using GetIds = cl_int(CL_API_CALL *)(cl_uint, cl_platform_id *, cl_uint *);
  using GetAddress = void *(CL_API_CALL *)(cl_platform_id, const char *);
  using SetData = cl_int(CL_API_CALL *)(cl_platform_id, void *);
  auto get_ids =
      reinterpret_cast<GetIds>(dlsym(library, "clIcdGetPlatformIDsKHR"));
  auto get_address = reinterpret_cast<GetAddress>(
      dlsym(library, "clIcdGetFunctionAddressForPlatformKHR"));
  auto set_data = reinterpret_cast<SetData>(
      dlsym(library, "clIcdSetPlatformDispatchDataKHR"));
  check(get_ids && get_address && set_data, "the three entry points exist");
  if (failures)
    return 1;
  cl_platform_id platform = nullptr;
  check(get_ids(1, &platform, nullptr) == CL_SUCCESS, "a platform");
  check(set_data(nullptr, nullptr) == CL_INVALID_PLATFORM,
        "a null platform is refused");
  check(get_address(nullptr, "clCreateContext") == nullptr,
        "no function for a null platform");

  static int loader_table; // stands for the loader's own dispatch data
  check(set_data(platform, &loader_table) == CL_SUCCESS, "data set");
  check(carries(platform, &loader_table), "the platform carries the data");

  // Every function by name: the core ones, and extension ones.
  const char *names[] = {
      "clGetPlatformIDs",      "clGetDeviceIDs",
      "clCreateContext",       "clCreateCommandQueue",
      "clCreateBuffer",        "clReleaseContext",
      "clGetContextInfo",      "clSetContextDestructorCallback",
      "clCreateProgramWithIL", "clCreateCommandBufferKHR"};
  for (const char *name : names)
    check(get_address(platform, name) != nullptr, name);
  check(get_address(platform, "clNoSuchFunction") == nullptr,
        "no function for an unknown name");

  auto get_devices = reinterpret_cast<decltype(&clGetDeviceIDs)>(
      get_address(platform, "clGetDeviceIDs"));
  auto create_context = reinterpret_cast<decltype(&clCreateContext)>(
      get_address(platform, "clCreateContext"));
  auto create_buffer = reinterpret_cast<decltype(&clCreateBuffer)>(
      get_address(platform, "clCreateBuffer"));
  auto release_context = reinterpret_cast<decltype(&clReleaseContext)>(
      get_address(platform, "clReleaseContext"));
  auto release_buffer = reinterpret_cast<decltype(&clReleaseMemObject)>(
      get_address(platform, "clReleaseMemObject"));
  auto get_platform_ids = reinterpret_cast<decltype(&clGetPlatformIDs)>(
      get_address(platform, "clGetPlatformIDs"));
  cl_uint count = 0;
  check(get_platform_ids(0, nullptr, &count) == CL_SUCCESS && count == 1,
        "clGetPlatformIDs by name works");
  cl_device_id device = nullptr;
  check(get_devices(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr) ==
            CL_SUCCESS,
        "a device");
  check(carries(device, &loader_table), "the device carries the data");
  cl_int err;
  cl_context context =
      create_context(nullptr, 1, &device, nullptr, nullptr, &err);
  check(err == CL_SUCCESS && carries(context, &loader_table),
        "a new context carries the data");
  cl_mem buffer = create_buffer(context, CL_MEM_READ_WRITE, 64, nullptr, &err);
  check(err == CL_SUCCESS && carries(buffer, &loader_table),
        "a new buffer carries the data");
  release_buffer(buffer);
  release_context(context);
  if (failures == 0)
    std::printf("all cl_khr_icd 2.0 checks passed\n");
  return failures ? 1 : 0;
}
