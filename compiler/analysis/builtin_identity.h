// Which builtin a called function is, from the one table of builtin
// identities (compiler/analysis/builtin_identities.def).
#pragma once
#include <llvm/ADT/StringRef.h>

#include <cstdint>

namespace llvm {
class Function;
class Instruction;
class Module;
} // namespace llvm

namespace weft::compiler {

enum class Builtin : uint32_t {
  None,
#define WEFT_BUILTIN(identity, symbol, family) identity,
#include "compiler/analysis/builtin_identities.def"
};

// What a kernel plan asks of a builtin. Work-group collectives, images and
// half-precision conversions get families of their own as they arrive.
enum class BuiltinFamily : uint32_t {
  None,
  WorkItemQuery,
  Barrier,
  BarrierMarker,
  AsyncCopy,         // a copy (the engine makes it for the group)
  AsyncCopyWait,     // wait_group_events
  WorkGroupPipeCall, // as Clang emits it
  WorkGroupPipe, // as compiler/passes/kernels/work_group_pipes.cpp rewrote it
  WorkGroupCollective,
  SubGroupExchange, // values passed between a sub-group's work-items
  Printf,
  Image,
  Count,
};

Builtin identifyBuiltin(llvm::StringRef name);
Builtin identifyBuiltin(const llvm::Function &function);
// The builtin `inst` calls directly, or Builtin::None.
Builtin calledBuiltin(const llvm::Instruction &inst);
BuiltinFamily familyOf(Builtin builtin);
llvm::StringRef symbolOf(Builtin builtin);
// The module's function for `builtin`, or null.
llvm::Function *findBuiltin(const llvm::Module &module, Builtin builtin);
// Whether `f` calls a builtin of `family` directly.
bool callsFamily(const llvm::Function &f, BuiltinFamily family);

} // namespace weft::compiler
