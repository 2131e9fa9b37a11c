// Program entry points: creation from source, IL and binaries, building,
// queries.
#include "icd/info_query.h"
#include "icd/validation.h"
#include "runtime/compiler_loader.h"
#include "runtime/context.h"
#include "runtime/device.h"
#include "runtime/program.h"
#include "runtime/program_binary.h"
#include "runtime/spirv_module.h"

#include <cstring>
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

CL_API_ENTRY cl_program CL_API_CALL
clCreateProgramWithIL(cl_context context_handle, const void *il, size_t length,
                      cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  // No device of the context takes IL without the translator.
  if (!spirvProgramsSupported()) {
    setError(errcode_ret, CL_INVALID_OPERATION);
    return nullptr;
  }
  SpirvModuleInfo info;
  std::string why;
  if (!il || length == 0 || !readSpirvModule(il, length, info, why) ||
      !validSpirvModule(il, length)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  const auto *bytes = static_cast<const unsigned char *>(il);
  auto *program = new (std::nothrow)
      Program(*context, std::vector<unsigned char>(bytes, bytes + length),
              std::move(info));
  setError(errcode_ret, program ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY);
  return program;
}

CL_API_ENTRY cl_int CL_API_CALL
clSetProgramSpecializationConstant(cl_program handle, cl_uint spec_id,
                                   size_t spec_size, const void *spec_value) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  return program->setSpecializationConstant(spec_id, spec_size, spec_value);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(
    cl_context context_handle, cl_uint num_devices, const cl_device_id *devices,
    const size_t *lengths, const unsigned char **binaries,
    cl_int *binary_status, cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if (num_devices == 0 || !devices || !lengths || !binaries) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (!Device::fromHandle(devices[i]) || !context->hasDevice(devices[i])) {
      setError(errcode_ret, CL_INVALID_DEVICE);
      return nullptr;
    }
    if (lengths[i] == 0 || !binaries[i]) {
      if (binary_status)
        binary_status[i] = CL_INVALID_VALUE;
      setError(errcode_ret, CL_INVALID_VALUE);
      return nullptr;
    }
  }
  // The context's devices all run the same code: each entry must be a
  // binary for it.
  ProgramImage image;
  cl_int result = CL_SUCCESS;
  for (cl_uint i = 0; i < num_devices; ++i) {
    std::string why;
    bool valid = parseProgramImage(binaries[i], lengths[i], image, why) &&
                 image.target == context->device().codeTarget();
    if (binary_status)
      binary_status[i] = valid ? CL_SUCCESS : CL_INVALID_BINARY;
    if (!valid)
      result = CL_INVALID_BINARY;
  }
  if (result != CL_SUCCESS) {
    setError(errcode_ret, result);
    return nullptr;
  }
  std::vector<unsigned char> binary(binaries[0], binaries[0] + lengths[0]);
  auto *program =
      new (std::nothrow) Program(*context, std::move(image), std::move(binary));
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
    const char *options, void(CL_CALLBACK *pfn_notify)(cl_program, void *),
    void *user_data) {
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
  auto executable = program->executable();
  switch (param_name) {
  case CL_PROGRAM_REFERENCE_COUNT:
    return out.value(program->apiReferenceCount());
  case CL_PROGRAM_CONTEXT:
    return out.value(static_cast<cl_context>(&program->context()));
  // A program is for every device of its context: they all run the same
  // native code, so one build serves them all.
  case CL_PROGRAM_NUM_DEVICES:
    return out.value(static_cast<cl_uint>(program->context().devices().size()));
  case CL_PROGRAM_DEVICES:
    return out.array(program->context().deviceHandles());
  case CL_PROGRAM_SOURCE:
    return out.string(program->source());
  case CL_PROGRAM_IL:
    return out.bytes(program->il().data(), program->il().size());
  case CL_PROGRAM_BINARY_SIZES:
    // 0 when there is no binary yet (spec); the same binary for each device.
    return out.array(std::vector<size_t>(program->context().devices().size(),
                                         program->binary().size()));
  case CL_PROGRAM_BINARIES: {
    // An array of one pointer per device, each to a buffer the application
    // sized with CL_PROGRAM_BINARY_SIZES; a null entry is skipped.
    size_t count = program->context().devices().size();
    if (param_value && param_value_size < count * sizeof(unsigned char *))
      return CL_INVALID_VALUE;
    if (param_value_size_ret)
      *param_value_size_ret = count * sizeof(unsigned char *);
    if (param_value) {
      std::vector<unsigned char> binary = program->binary();
      for (size_t i = 0; i < count; ++i) {
        unsigned char *destination =
            static_cast<unsigned char **>(param_value)[i];
        if (destination && !binary.empty())
          std::memcpy(destination, binary.data(), binary.size());
      }
    }
    return CL_SUCCESS;
  }
  case CL_PROGRAM_NUM_KERNELS:
  case CL_PROGRAM_KERNEL_NAMES: {
    if (!executable)
      return CL_INVALID_PROGRAM_EXECUTABLE;
    if (param_name == CL_PROGRAM_NUM_KERNELS)
      return out.value(executable->kernels().size());
    std::string names;
    for (const auto &kernel : executable->kernels())
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
  case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE: {
    auto executable = program->executable();
    return out.value(static_cast<size_t>(
        executable ? executable->globalVariableBytes() : 0));
  }
  default:
    return CL_INVALID_VALUE;
  }
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(
    cl_program handle, cl_uint num_devices, const cl_device_id *devices,
    const char *options, cl_uint num_input_headers,
    const cl_program *input_headers, const char **header_include_names,
    void(CL_CALLBACK *pfn_notify)(cl_program, void *), void *user_data) {
  Program *program = Program::fromHandle(handle);
  if (!program)
    return CL_INVALID_PROGRAM;
  if (cl_int err = checkDevices(*program, num_devices, devices))
    return err;
  if ((num_input_headers == 0) != (input_headers == nullptr) ||
      (num_input_headers == 0) != (header_include_names == nullptr))
    return CL_INVALID_VALUE;
  if (!pfn_notify && user_data)
    return CL_INVALID_VALUE;
  std::vector<compiler::EmbeddedHeader> headers;
  for (cl_uint i = 0; i < num_input_headers; ++i) {
    Program *header = Program::fromHandle(input_headers[i]);
    if (!header)
      return CL_INVALID_PROGRAM;
    if (!header_include_names[i])
      return CL_INVALID_VALUE;
    headers.push_back({header_include_names[i], header->source()});
  }
  cl_int result = program->compile(options ? options : "", headers);
  if (pfn_notify && result != CL_INVALID_OPERATION)
    pfn_notify(program, user_data);
  return result;
}

CL_API_ENTRY cl_program CL_API_CALL
clLinkProgram(cl_context context_handle, cl_uint num_devices,
              const cl_device_id *devices, const char *options,
              cl_uint num_input_programs, const cl_program *input_programs,
              void(CL_CALLBACK *pfn_notify)(cl_program, void *),
              void *user_data, cl_int *errcode_ret) {
  Context *context = Context::fromHandle(context_handle);
  if (!context) {
    setError(errcode_ret, CL_INVALID_CONTEXT);
    return nullptr;
  }
  if ((num_devices == 0) != (devices == nullptr) || num_input_programs == 0 ||
      !input_programs || (!pfn_notify && user_data)) {
    setError(errcode_ret, CL_INVALID_VALUE);
    return nullptr;
  }
  for (cl_uint i = 0; i < num_devices; ++i)
    if (!Device::fromHandle(devices[i]) || !context->hasDevice(devices[i])) {
      setError(errcode_ret, CL_INVALID_DEVICE);
      return nullptr;
    }
  std::vector<Program *> inputs;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    Program *input = Program::fromHandle(input_programs[i]);
    if (!input || &input->context() != context) {
      setError(errcode_ret, CL_INVALID_PROGRAM);
      return nullptr;
    }
    inputs.push_back(input);
  }
  cl_int error = CL_SUCCESS;
  Program *program =
      Program::link(*context, inputs, options ? options : "", error);
  setError(errcode_ret, error);
  if (program && pfn_notify)
    pfn_notify(program, user_data);
  return program;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id) {
  // The compiler library stays loaded: unloading LLVM is not safe to repeat.
  return CL_SUCCESS;
}
