// Program entry points: creation from source, building, queries.
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/device.h"
#include "runtime/program.h"

#include <new>

using namespace weft;
using weft::icd::setError;

namespace {

// Checks the device list of clBuildProgram and friends.
cl_int checkDevices(Program &program, cl_uint num_devices,
                    const cl_device_id *devices) {
  if ((num_devices == 0) != (devices == nullptr))
    return CL_INVALID_VALUE;
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!Device::fromHandle(devices[i]) ||
        !program.context().hasDevice(devices[i]))
      return CL_INVALID_DEVICE;
  return CL_SUCCESS;
}

} // namespace

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(
    cl_context context_handle, cl_uint count, const char **strings,
    const size_t *lengths, cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (count == 0 || !strings) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i]) {
      setError(errcode_ret, CL_INVALID_VALUE);
      return nullptr;
    }
    if (lengths && lengths[i])
      source.append(strings[i], lengths[i]);
    else
      source.append(strings[i]);
  }
  auto *program = new (std::nothrow) Program(*context, std::move(source));
  setError(errcode_ret, program ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return program;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program handle) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  program->retainApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program handle) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  program->releaseApi();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(
    cl_program handle, cl_uint num_devices, const cl_device_id *devices,
    const char *options,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  if (cl_int err = checkDevices(*program, num_devices, devices))
    return err;
  if (!pfn_notify && user_data)
    return CL_INVALID_VALUE;
  cl_int result = program->build(options ? options : "");
  // The build is synchronous; the callback still tells that it finished.
  if (pfn_notify && result != CL_INVALID_OPERATION)
    pfn_notify(program, user_data);
  return result;
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program handle,
                                                 cl_program_info param_name,
                                                 size_t param_value_size,
                                                 void *param_value,
                                                 size_t *param_value_size_ret) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  auto compiled = program->compiled();
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return out.value(program->apiReferenceCount());
  case CL_PROGRAM_CONTEXT:
    return out.value(static_cast<cl_context>(&program->context()));
  case CL_PROGRAM_NUM_DEVICES:
    return out.value(cl_uint{1});
  case CL_PROGRAM_DEVICES:
    return out.value(static_cast<cl_device_id>(&program->context().device()));
  case CL_PROGRAM_SOURCE:
    return out.string(program->source());
  case CL_PROGRAM_IL:
    return out.bytes(nullptr, 0);
  case CL_PROGRAM_BINARY_SIZES:
    // Program binaries are not produced yet: a size of 0 says so (spec).
    return out.value(size_t{0});
  case CL_PROGRAM_BINARIES: {
    unsigned char *none = nullptr;
    return out.value(none) == CL_SUCCESS ? CL_SUCCESS : CL_INVALID_VALUE;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!compiled)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    if (param_name == CL_PROGRAM_NUM_KERNELS)
      return out.value(compiled->kernels().size());
    std::string names;
    for (const auto &kernel : compiled->kernels())
      names += (names.empty() ? "" : ";") + kernel.name;
    return out.string(names);
  }
  case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
  case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
    return out.value(cl_bool{CL_FALSE});
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(
    cl_program handle, cl_device_id device, cl_program_build_info param_name,
    size_t param_value_size, void *param_value, size_t *param_value_size_ret) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  if (!Device::fromHandle(device) || !program->context().hasDevice(device))
    return CL_INVALID_DEVICE;
  icd::InfoWriter out(param_value_size, param_value, param_value_size_ret);
  switch (param_name) {
  case CL_PROGRAM_BUILD_STATUS:
    return out.value(program->buildStatus());
  case CL_PROGRAM_BUILD_OPTIONS:
    return out.string(program->buildOptions());
  case CL_PROGRAM_BUILD_LOG:
    return out.string(program->buildLog());
  case CL_PROGRAM_BINARY_TYPE:
    return out.value(program->binaryType());
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
    return out.value(size_t{0});
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id) {
  // The compiler library stays loaded: unloading LLVM is not safe to repeat.
  return CL_SUCCESS;
}
