#include "compiler/passes/finish/internalize_entries.h"

#include "compiler/analysis/kernel_metadata.h"

#include <llvm/IR/Module.h>

#include <set>

namespace weft::compiler {

llvm::PreservedAnalyses
InternalizeEntriesPass::run(llvm::Module &module,
                            llvm::ModuleAnalysisManager &) {
  std::set<std::string> entries;
  for (const KernelRecord &record : readKernelRecords(module)) {
    const std::string &name = record.description.name;
    entries.insert(groupEntrySymbol(name));
    entries.insert(workItemEntrySymbol(name));
    entries.insert(readThroughEntrySymbol(name));
  }
  for (llvm::Function &f : module)
    if (!f.isDeclaration() && !entries.count(f.getName().str()))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  // LLVM's own lists (llvm.global_ctors: C++ for OpenCL's constructors of
  // program-scope objects, program_constructors.h) keep their meaning only
  // under their appending linkage.
  for (llvm::GlobalVariable &g : module.globals())
    if (!g.isDeclaration() && !g.getName().starts_with("llvm."))
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
  return llvm::PreservedAnalyses::none();
}

} // namespace weft::compiler
