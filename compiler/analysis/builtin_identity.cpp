#include "compiler/analysis/builtin_identity.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace weft::compiler {
namespace {

struct Entry {
  Builtin builtin;
  const char *symbol;
  BuiltinFamily family;
};

constexpr Entry kEntries[] = {
    {Builtin::None, "", BuiltinFamily::None},
#define WEFT_BUILTIN(identity, symbol, family)                                 \
  {Builtin::identity, symbol, BuiltinFamily::family},
#include "compiler/analysis/builtin_identities.def"
};

const llvm::StringMap<Builtin> &bySymbol() {
  static const llvm::StringMap<Builtin> map = [] {
    llvm::StringMap<Builtin> m;
    for (const Entry &entry : kEntries)
      if (entry.builtin != Builtin::None)
        m[entry.symbol] = entry.builtin;
    return m;
  }();
  return map;
}

const Entry &entryOf(Builtin builtin) {
  return kEntries[static_cast<uint32_t>(builtin)];
}

} // namespace

Builtin identifyBuiltin(llvm::StringRef name) {
  auto it = bySymbol().find(name);
  return it == bySymbol().end() ? Builtin::None : it->second;
}

Builtin identifyBuiltin(const llvm::Function &function) {
  return identifyBuiltin(function.getName());
}

Builtin calledBuiltin(const llvm::Instruction &inst) {
  if (const auto *call = llvm::dyn_cast<llvm::CallBase>(&inst))
    if (const llvm::Function *callee = call->getCalledFunction())
      return identifyBuiltin(*callee);
  return Builtin::None;
}

BuiltinFamily familyOf(Builtin builtin) { return entryOf(builtin).family; }

llvm::StringRef symbolOf(Builtin builtin) { return entryOf(builtin).symbol; }

llvm::Function *findBuiltin(const llvm::Module &module, Builtin builtin) {
  return module.getFunction(symbolOf(builtin));
}

bool callsFamily(const llvm::Function &f, BuiltinFamily family) {
  for (const llvm::BasicBlock &block : f)
    for (const llvm::Instruction &inst : block)
      if (familyOf(calledBuiltin(inst)) == family)
        return true;
  return false;
}

} // namespace weft::compiler
