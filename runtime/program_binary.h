// Weft's program binary: what CL_PROGRAM_BINARIES returns, what
// clCreateProgramWithBinary takes and what the on-disk cache stores. It holds
// the kernels' descriptions and the shared objects of their native code, so a
// program loads from it without the compiler library. The cache also stores
// programs some of whose kernels are still bitcode (compiled when first
// used); CL_PROGRAM_BINARIES compiles them first.
//
// Layout: an 8-byte magic, a format version, the payload size and a checksum
// of the payload, then the payload (length-prefixed fields, host byte order:
// the code inside is for this CPU anyway).
#pragma once
#include "compiler/interface/compiler_interface.h"

#include <cstddef>
#include <string>
#include <vector>

namespace weft {

// What a binary holds: native code, or bitcode from clCompileProgram or a
// library from clLinkProgram -create-library.
enum class ProgramImageKind : uint32_t { Executable, CompiledObject, Library };

// The native code of some of a program's kernels: a shared object, or,
// until one of them is first used, the bitcode it is compiled from
// (compiler::DeferredPart).
struct ProgramImagePart {
  // Whose entry points it defines, image format variants included.
  std::vector<std::string> kernels;
  std::vector<unsigned char> shared_object; // empty while deferred
  std::vector<unsigned char> bitcode;       // set while deferred
  bool optimize = true;                     // false: -cl-opt-disable
  bool deferred() const { return shared_object.empty(); }
};

struct ProgramImage {
  ProgramImageKind kind = ProgramImageKind::Executable;
  std::vector<unsigned char> bitcode; // compiled objects and libraries
  // The CPU the code was generated for (Device::codeTarget()): a binary
  // only loads on a device with the same one.
  std::string target;
  std::string build_options;
  std::string build_log;
  // Without entry addresses; the frame sizes of deferred parts' kernels
  // are not known yet.
  std::vector<compiler::KernelDescription> kernels;
  // Executables: every kernel in exactly one part.
  std::vector<ProgramImagePart> parts;
  uint64_t global_variable_bytes = 0;
};

std::vector<unsigned char> serializeProgramImage(const ProgramImage &image);

// Checks everything a loader relies on (sizes, checksum, argument layout
// within the argument block, x86-64 ELF shared objects or LLVM bitcode, every
// kernel in one part) and fills `image`.
// Returns false with the reason in `why` for anything malformed.
bool parseProgramImage(const unsigned char *data, size_t size,
                       ProgramImage &image, std::string &why);

} // namespace weft
