#include "runtime/program.h"

#include "runtime/compiler_loader.h"
#include "runtime/context.h"
#include "runtime/debug_log.h"
#include "runtime/device.h"
#include "runtime/program_cache.h"
#include "runtime/settings.h"

#include <algorithm>
#include <cstring>
#include <sstream>
#include <new>

namespace weft {
namespace {

// What a successful build from source or link is stored and returned as.
ProgramImage executableImage(const Device &device, const std::string &options,
                             compiler::BuildResult &result) {
  ProgramImage image;
  image.target = device.codeTarget();
  image.build_options = options;
  image.build_log = result.log;
  image.kernels = std::move(result.kernels);
  image.global_variable_bytes = result.global_variable_bytes;
  if (result.deferred.empty()) {
    ProgramImagePart whole;
    for (const compiler::KernelDescription &k : image.kernels)
      whole.kernels.push_back(k.name);
    whole.shared_object = std::move(result.shared_object);
    image.parts.push_back(std::move(whole));
  }
  for (compiler::DeferredPart &deferred : result.deferred)
    image.parts.push_back({std::move(deferred.kernels),
                           {},
                           std::move(deferred.bitcode),
                           deferred.optimize});
  return image;
}

} // namespace

Program::Program(Context &context, std::string source)
    : context_(&context), source_(std::move(source)), from_binary_(false) {}

Program::Program(Context &context, std::vector<unsigned char> il,
                 SpirvModuleInfo il_info)
    : context_(&context), il_(std::move(il)), il_info_(std::move(il_info)),
      from_binary_(false) {}

cl_int Program::setSpecializationConstant(cl_uint id, size_t size,
                                          const void *value) {
  if (!fromIl())
    return CL_INVALID_PROGRAM; // not created from an intermediate language
  auto found = il_info_.spec_constants.find(id);
  if (found == il_info_.spec_constants.end())
    return CL_INVALID_SPEC_ID;
  if (!value || size != found->second.size())
    return CL_INVALID_VALUE;
  uint64_t bits = 0;
  std::memcpy(&bits, value, size);
  std::lock_guard<std::mutex> lock(mutex_);
  spec_values_[id] = bits;
  return CL_SUCCESS;
}

std::vector<compiler::SpecializationConstant> Program::specializations() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<compiler::SpecializationConstant> out;
  for (const auto &[id, bits] : spec_values_) {
    const SpirvSpecConstant &c = il_info_.spec_constants.at(id);
    compiler::SpecializationConstant value;
    value.id = id;
    value.kind = c.kind == SpirvSpecConstant::Kind::Bool
                     ? compiler::SpecializationConstant::Kind::Bool
                 : c.kind == SpirvSpecConstant::Kind::Float
                     ? compiler::SpecializationConstant::Kind::Float
                     : compiler::SpecializationConstant::Kind::Int;
    value.bits = c.bits;
    value.value_bits = bits;
    out.push_back(value);
  }
  return out;
}

std::string Program::cacheSource() const {
  if (!fromIl())
    return source_;
  std::string key("\0SPIR-V", 7);
  key.append(il_.begin(), il_.end());
  for (const compiler::SpecializationConstant &c : specializations())
    key += "|" + std::to_string(c.id) + "=" + std::to_string(c.value_bits);
  return key;
}

Program::Program(Context &context, ProgramImage image,
                 std::vector<unsigned char> binary)
    : context_(&context), from_binary_(true), binary_image_(std::move(image)),
      given_binary_(std::move(binary)) {
  switch (binary_image_.kind) {
  case ProgramImageKind::Executable:
    binary_type_ = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    break;
  case ProgramImageKind::CompiledObject:
    binary_type_ = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    bitcode_ = binary_image_.bitcode;
    break;
  case ProgramImageKind::Library:
    binary_type_ = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    bitcode_ = binary_image_.bitcode;
    break;
  }
}

cl_int Program::build(const std::string &options) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_ == CL_BUILD_IN_PROGRESS || hasKernels())
      return CL_INVALID_OPERATION;
    status_ = CL_BUILD_IN_PROGRESS;
    options_ = options;
  }
  if (from_binary_) {
    // Only an executable binary can be built; objects and libraries are
    // for clLinkProgram (spec).
    if (binary_image_.kind != ProgramImageKind::Executable)
      return finishBuild(CL_INVALID_BINARY,
                         "error: a compiled object or library binary must be "
                         "linked with clLinkProgram\n",
                         nullptr);
    std::string error;
    auto executable = ProgramExecutable::load(binary_image_, "", error);
    if (!executable)
      return finishBuild(CL_INVALID_BINARY, error, nullptr);
    debugLog("program %p loaded from a binary", static_cast<void *>(this));
    return finishBuild(CL_SUCCESS, binary_image_.build_log,
                       std::move(executable));
  }
  std::string log;
  std::shared_ptr<ProgramExecutable> executable;
  cl_int status = buildFromSource(options, log, executable);
  return finishBuild(status, std::move(log), std::move(executable));
}

cl_int
Program::buildFromSource(const std::string &options, std::string &log,
                         std::shared_ptr<ProgramExecutable> &executable) {
  const Device &device = context_->device();
  compiler::DeviceDescription description = device.compilerDescription();
  const ProgramCache &cache = ProgramCache::instance();
  const std::string &identity = compilerIdentity();
  std::string key;
  if (cache.enabled() && !identity.empty()) {
    key = ProgramCache::sourceKey(cacheSource(), options, device.codeTarget(),
                                  description, identity);
    std::vector<unsigned char> binary;
    ProgramImage image;
    std::string why;
    if (cache.lookup(key, binary) &&
        parseProgramImage(binary.data(), binary.size(), image, why) &&
        image.target == device.codeTarget()) {
      std::string cached_log = image.build_log;
      executable = ProgramExecutable::load(std::move(image), key, why);
      if (executable) {
        debugLog("program %p loaded from the cache", static_cast<void *>(this));
        log = std::move(cached_log);
        return CL_SUCCESS;
      }
    }
  }

  std::string error;
  compiler::Compiler *compiler = loadCompiler(error);
  if (!compiler) {
    log = "error: " + error + "\n";
    return CL_COMPILER_NOT_AVAILABLE;
  }
  compiler::BuildResult result =
      fromIl() ? compiler->buildFromSpirv(il_, specializations(), options,
                                          description)
               : compiler->buildFromSource(source_, options, description);
  log = result.log;
  switch (result.status) {
  case compiler::BuildResult::Status::Success:
    break;
  case compiler::BuildResult::Status::InvalidOptions:
    return CL_INVALID_BUILD_OPTIONS;
  default:
    return CL_BUILD_PROGRAM_FAILURE;
  }

  ProgramImage image = executableImage(device, options, result);
  std::vector<unsigned char> binary;
  if (!key.empty())
    binary = serializeProgramImage(image);
  executable = ProgramExecutable::load(std::move(image), key, error);
  if (!executable) {
    log += error;
    return CL_BUILD_PROGRAM_FAILURE;
  }
  if (!key.empty())
    cache.store(key, binary);
  debugLog("program %p compiled", static_cast<void *>(this));
  debugLogRemarks(result.log);
  return CL_SUCCESS;
}

cl_int Program::finishBuild(cl_int status, std::string log,
                            std::shared_ptr<ProgramExecutable> executable) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_ = std::move(log);
  status_ = status == CL_SUCCESS ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
  executable_ = std::move(executable);
  if (executable_)
    binary_type_ = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  else if (!from_binary_)
    binary_type_ = CL_PROGRAM_BINARY_TYPE_NONE;
  if (executable_ || !from_binary_)
    bitcode_.clear();
  return status;
}

cl_int Program::compile(const std::string &options,
                        const std::vector<compiler::EmbeddedHeader> &headers) {
  // A program from source compiles, even an empty one (a translation unit
  // with no declarations); one from a binary has nothing to compile.
  if (from_binary_)
    return CL_INVALID_OPERATION;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (status_ == CL_BUILD_IN_PROGRESS || hasKernels())
      return CL_INVALID_OPERATION;
    status_ = CL_BUILD_IN_PROGRESS;
    options_ = options;
  }
  std::string error;
  compiler::Compiler *compiler = loadCompiler(error);
  if (!compiler)
    return finishBuild(CL_COMPILER_NOT_AVAILABLE, "error: " + error + "\n",
                       nullptr);
  compiler::DeviceDescription description =
      context_->device().compilerDescription();
  compiler::CompileResult result =
      fromIl()
          ? compiler->compileSpirv(il_, specializations(), options, description)
          : compiler->compileToBitcode(source_, options, headers, description);
  cl_int status = CL_SUCCESS;
  if (result.status == compiler::CompileResult::Status::InvalidOptions)
    status = CL_INVALID_COMPILER_OPTIONS;
  else if (result.status != compiler::CompileResult::Status::Success)
    status = CL_COMPILE_PROGRAM_FAILURE;
  finishBuild(status, result.log, nullptr);
  if (status == CL_SUCCESS) {
    std::lock_guard<std::mutex> lock(mutex_);
    binary_type_ = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    bitcode_ = std::move(result.bitcode);
  }
  return status;
}

bool Program::bitcode(std::vector<unsigned char> &out) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (bitcode_.empty())
    return false;
  out = bitcode_;
  return true;
}

Program *Program::link(Context &context, const std::vector<Program *> &inputs,
                       const std::string &options, cl_int &error) {
  std::vector<std::vector<unsigned char>> objects(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i]->bitcode(objects[i])) {
      error = CL_INVALID_OPERATION;
      return nullptr;
    }
  std::string why;
  compiler::Compiler *compiler = loadCompiler(why);
  if (!compiler) {
    error = CL_LINKER_NOT_AVAILABLE;
    return nullptr;
  }
  const Device &device = context.device();
  compiler::CompileResult library;
  compiler::BuildResult result = compiler->linkBitcode(
      objects, options, device.compilerDescription(), library);
  if (result.status == compiler::BuildResult::Status::InvalidOptions) {
    error = CL_INVALID_LINKER_OPTIONS;
    return nullptr;
  }
  auto *program = new (std::nothrow) Program(context, std::string());
  if (!program) {
    error = CL_OUT_OF_HOST_MEMORY;
    return nullptr;
  }
  program->options_ = options;
  if (result.status != compiler::BuildResult::Status::Success) {
    program->finishBuild(CL_LINK_PROGRAM_FAILURE, result.log, nullptr);
    error = CL_LINK_PROGRAM_FAILURE;
    return program;
  }
  if (library.status == compiler::CompileResult::Status::Success) {
    program->finishBuild(CL_SUCCESS, result.log, nullptr);
    program->binary_type_ = CL_PROGRAM_BINARY_TYPE_LIBRARY;
    program->bitcode_ = std::move(library.bitcode);
    error = CL_SUCCESS;
    return program;
  }
  ProgramImage image = executableImage(device, options, result);
  auto executable = ProgramExecutable::load(std::move(image), "", why);
  error = executable ? CL_SUCCESS : CL_LINK_PROGRAM_FAILURE;
  program->finishBuild(error, executable ? result.log : result.log + why,
                       std::move(executable));
  return program;
}

cl_build_status Program::buildStatus() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return status_;
}

std::string Program::buildLog() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return log_;
}

std::string Program::buildOptions() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return options_;
}

bool Program::builtWithOption(const std::string &option) const {
  std::istringstream words(buildOptions());
  for (std::string word; words >> word;)
    if (word == option)
      return true;
  return false;
}

bool Program::keepsArgumentNames() const {
  // IL, binaries and linked programs keep what they have.
  return source_.empty() || builtWithOption("-cl-kernel-arg-info");
}

cl_program_binary_type Program::binaryType() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return binary_type_;
}

void Program::appendToBuildLog(const std::string &text) {
  std::lock_guard<std::mutex> lock(mutex_);
  log_ += text;
}

std::vector<unsigned char> Program::binary() {
  std::shared_ptr<const ProgramExecutable> executable = this->executable();
  if (executable) {
    std::string log;
    std::vector<unsigned char> binary = executable->binary(log);
    if (!log.empty())
      appendToBuildLog(log);
    return binary;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!bitcode_.empty()) {
    ProgramImage image;
    image.kind = binary_type_ == CL_PROGRAM_BINARY_TYPE_LIBRARY
                     ? ProgramImageKind::Library
                     : ProgramImageKind::CompiledObject;
    image.bitcode = bitcode_;
    image.target = context_->device().codeTarget();
    image.build_options = options_;
    image.build_log = log_;
    return serializeProgramImage(image);
  }
  return from_binary_ ? given_binary_ : std::vector<unsigned char>();
}

std::shared_ptr<const ProgramExecutable> Program::executable() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return executable_;
}

} // namespace weft
