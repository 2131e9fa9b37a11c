#include "compiler/frontend/spirv_translator.h"

#include "compiler/analysis/kernel_signature.h"
#include "compiler/frontend/spirv_execution_modes.h"
#include "compiler/frontend/spirv_legalize.h"
#include "compiler/frontend/spirv_validation.h"
#include "compiler/support/scratch_directory.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/CallingConv.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cinttypes>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace weft::compiler {
namespace {

// What Clang gives OpenCL C for this triple
// (compiler/frontend/clang_frontend.cpp).
constexpr const char *kHostTriple = "x86_64-unknown-linux-gnu";
constexpr const char *kHostDataLayout =
    "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:"
    "64-S128";

// The translator's --spec-const form of one constant: id:type:value, the
// value in decimal (floats with enough digits to come back exact).
std::string specConstantArgument(const SpecializationConstant &c) {
  std::ostringstream out;
  out << c.id << ":";
  switch (c.kind) {
  case SpecializationConstant::Kind::Bool:
    out << "i1:" << (c.value_bits ? 1 : 0);
    break;
  case SpecializationConstant::Kind::Int:
    out << "i" << c.bits << ":" << c.value_bits;
    break;
  case SpecializationConstant::Kind::Float: {
    char text[96];
    if (c.bits == 64) {
      double d;
      std::memcpy(&d, &c.value_bits, sizeof d);
      std::snprintf(text, sizeof text, "%.17g", d);
    } else if (c.bits == 32) {
      float f;
      uint32_t w = static_cast<uint32_t>(c.value_bits);
      std::memcpy(&f, &w, sizeof f);
      std::snprintf(text, sizeof text, "%.9g", f);
    } else { // half: every half value is a float, written out exactly
      uint32_t h = static_cast<uint32_t>(c.value_bits & 0xffff);
      uint32_t sign = (h >> 15) << 31, exponent = (h >> 10) & 0x1f,
               mantissa = h & 0x3ff, w;
      if (exponent == 0x1f)
        w = sign | 0x7f800000 | (mantissa << 13);
      else if (exponent)
        w = sign | ((exponent + 112) << 23) | (mantissa << 13);
      else if (!mantissa)
        w = sign;
      else { // subnormal half: normal float
        int shift = 0;
        while (!(mantissa & 0x400)) {
          mantissa <<= 1;
          ++shift;
        }
        w = sign | ((113 - shift) << 23) | ((mantissa & 0x3ff) << 13);
      }
      float f;
      std::memcpy(&f, &w, sizeof f);
      // The translator takes no half that its decimal form only approaches.
      std::snprintf(text, sizeof text, "%.40g", f);
    }
    out << "f" << c.bits << ":" << text;
    break;
  }
  }
  return out.str();
}

// Runs `argv` with stdout and stderr to `output_path`; its exit status,
// 1000 + the signal that stopped it, or -1 when it could not run.
int runProcess(const std::vector<std::string> &argv,
               const std::string &output_path) {
  std::vector<char *> args;
  for (const std::string &a : argv)
    args.push_back(const_cast<char *>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, output_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  // An empty environment: the translator needs none, and the driver reads
  // the environment only through runtime/settings.def.
  char *no_environment[] = {nullptr};
  pid_t pid;
  int spawned = posix_spawn(&pid, args[0], &actions, nullptr, args.data(),
                            no_environment);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0)
    return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  if (WIFSIGNALED(status))
    return 1000 + WTERMSIG(status); // stopped by a signal (a crash)
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string readFile(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

} // namespace

std::string spirvTranslatorPath() {
  for (const char *candidate : kSpirvTranslatorPaths)
    if (access(candidate, X_OK) == 0)
      return candidate;
  return "";
}

std::unique_ptr<llvm::Module>
translateSpirv(const std::vector<unsigned char> &il,
               const std::vector<SpecializationConstant> &constants,
               const std::string &temporary_directory,
               llvm::LLVMContext &context, std::string &log) {
  std::string translator = spirvTranslatorPath();
  if (translator.empty()) {
    log += "error: the SPIR-V translator (llvm-spirv-15, Debian package "
           "llvm-spirv-15) is not installed\n";
    return nullptr;
  }
  if (!validateSpirv(il, log))
    return nullptr;
  ScratchDirectory scratch(temporary_directory, "weft-spirv");
  std::string input = scratch.file("program.spv"),
              output = scratch.file("program.bc"),
              messages = scratch.file("messages.txt");
  // Rewritten in host byte order when it parses; as given otherwise (the
  // translator then says what is wrong).
  std::string module_bytes(il.begin(), il.end());
  std::map<std::string, uint64_t> sub_group_counts;
  if (il.size() % 4 == 0 && il.size() >= 20) {
    std::vector<uint32_t> words(il.size() / 4);
    std::memcpy(words.data(), il.data(), il.size());
    if (words[0] == 0x07230203 &&
        legalizeSpirvForTranslator(words, constants)) {
      sub_group_counts = requiredSubGroupCounts(words);
      module_bytes.assign(reinterpret_cast<const char *>(words.data()),
                          words.size() * 4);
    }
  }
  if (!scratch.valid() || !scratch.write("program.spv", module_bytes)) {
    log += "error: cannot write the SPIR-V module to a scratch file\n";
    return nullptr;
  }
  std::vector<std::string> argv = {translator, "-r", "--spirv-target-env=CL2.0",
                                   input,      "-o", output};
  if (!constants.empty()) {
    std::string list;
    for (const SpecializationConstant &c : constants)
      list += (list.empty() ? "" : " ") + specConstantArgument(c);
    argv.push_back("--spec-const=" + list);
  }
  int status = runProcess(argv, messages);
  std::string said = readFile(messages);
  if (status != 0) {
    log += "error: the SPIR-V module cannot be read";
    if (status < 0)
      log += " (the translator did not run)\n";
    else if (status >= 1000)
      log += ": the SPIR-V translator failed on it (signal " +
             std::to_string(status - 1000) +
             "); it uses SPIR-V that llvm-spirv-15 does not read:\n" + said;
    else
      log += ":\n" + said;
    if (!log.empty() && log.back() != '\n')
      log += "\n";
    return nullptr;
  }
  auto buffer = llvm::MemoryBuffer::getFile(output);
  if (!buffer) {
    log += "error: the SPIR-V translator wrote no module\n";
    return nullptr;
  }
  auto module = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), context);
  if (!module) {
    log += "error: cannot read the translated module: " +
           llvm::toString(module.takeError()) + "\n";
    return nullptr;
  }
  adoptFrontendConventions(**module);
  for (const auto &[name, count] : sub_group_counts)
    if (llvm::Function *kernel = (*module)->getFunction(name))
      kernel->setMetadata(
          kRequiredSubGroupsMetadata,
          llvm::MDNode::get(
              context, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                           llvm::Type::getInt64Ty(context), count))));
  return std::move(*module);
}

// The builtin's name as Clang mangles it for this target: the SPIR target
// writes OpenCL address spaces as AS<number> vendor qualifiers, x86 by
// their names (CLglobal, ...). Each is one qualifier either way, so
// substitution indices in the rest of the name do not move.
std::string hostMangling(llvm::StringRef name) {
  static const std::pair<const char *, const char *> kQualifiers[] = {
      {"U3AS1", "U8CLglobal"},
      {"U3AS2", "U10CLconstant"},
      {"U3AS3", "U7CLlocal"},
      {"U3AS4", "U9CLgeneric"}};
  std::string out = name.str();
  for (const auto &[spir, host] : kQualifiers)
    for (size_t at = out.find(spir); at != std::string::npos;
         at = out.find(spir, at + std::strlen(host)))
      out.replace(at, std::strlen(spir), host);
  return out;
}

// The OpenCL C name of a builtin the translator names otherwise: it reads
// SPV_KHR_uniform_group_instructions' bitwise operations as
// work_group_<reduce|scan_*>_bitwise_<and|or|xor>, where
// cl_khr_work_group_uniform_arithmetic has work_group_<...>_<and|or|xor>.
// The mangled name's length prefix shrinks with the name.
std::string openclBuiltinName(llvm::StringRef mangled) {
  llvm::StringRef rest = mangled;
  size_t length = 0;
  if (!rest.consume_front("_Z") || rest.consumeInteger(10, length) ||
      length > rest.size())
    return mangled.str();
  llvm::StringRef name = rest.take_front(length);
  constexpr llvm::StringLiteral kBitwise = "_bitwise_";
  size_t at = name.find(kBitwise);
  if (!name.starts_with("work_group_") || at == llvm::StringRef::npos)
    return mangled.str();
  std::string renamed =
      (name.take_front(at) + "_" + name.drop_front(at + kBitwise.size())).str();
  return "_Z" + std::to_string(renamed.size()) + renamed +
         rest.drop_front(length).str();
}

void adoptFrontendConventions(llvm::Module &module) {
  module.setTargetTriple(kHostTriple);
  module.setDataLayout(kHostDataLayout);
  // Variables in the constant address space (UniformConstant) cannot
  // change, as Clang marks them: printf's formats must be such constants.
  constexpr unsigned kConstantAddressSpace = 2;
  for (llvm::GlobalVariable &g : module.globals())
    if (g.getAddressSpace() == kConstantAddressSpace && g.hasInitializer())
      g.setConstant(true);
  // Builtins are declarations with mangled names.
  std::vector<llvm::Function *> declarations;
  for (llvm::Function &f : module)
    if (f.isDeclaration() && f.getName().starts_with("_Z"))
      declarations.push_back(&f);
  for (llvm::Function *f : declarations) {
    std::string name = openclBuiltinName(hostMangling(f->getName()));
    if (name == f->getName())
      continue;
    if (llvm::Function *existing = module.getFunction(name)) {
      f->replaceAllUsesWith(existing);
      f->eraseFromParent();
    } else {
      f->setName(name);
    }
  }
  // Clang gives OpenCL C functions on this target the C convention and
  // keeps spir_kernel for kernels only.
  for (llvm::Function &f : module) {
    if (f.getCallingConv() == llvm::CallingConv::SPIR_FUNC)
      f.setCallingConv(llvm::CallingConv::C);
    for (llvm::Instruction &inst : llvm::instructions(f))
      if (auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
        if (call->getCallingConv() == llvm::CallingConv::SPIR_FUNC)
          call->setCallingConv(llvm::CallingConv::C);
  }
}

} // namespace weft::compiler
